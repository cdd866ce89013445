export { createSshBackend, remoteEnv, remoteTarget, type SshBackend } from './backend.js';
export { SshConnection, type SshConnectionState } from './connection.js';
export { checkFingerprint, checkKnownHosts, fingerprintOf, knownHostsName } from './host-key.js';
export { lossBoundMs, resolveSshOptions, type SshBackendOptions, type SshContainment } from './options.js';
export { DRAIN_MS, RemoteProcess } from './remote-process.js';
export { killerCommand, shQuote, signalCommand, wrapperCommand } from './remote-scripts.js';
export { createSshTmuxBackend, sshTmuxHost } from './remote-tmux.js';

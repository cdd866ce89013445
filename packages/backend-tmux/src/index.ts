export { createTmuxBackend, type TmuxBackend } from './backend.js';
export type { TmuxRef } from './layout.js';
export type { TmuxBackendOptions } from './options.js';
export { REMOTE_CGROUP } from './remote/cgroup-sh.js';
export type { RemoteStream, RemoteTmuxHost } from './remote/host.js';
export {
  createRemoteTmuxBackend,
  type RemoteTmuxBackend,
  type RemoteTmuxOptions,
} from './remote/remote-backend.js';
export {
  namespaceWords,
  type RemoteRun,
  remotePidNamespaceSupport,
  remoteProgramPid,
} from './remote/remote-containment.js';
export type { TmuxExec, TmuxResult } from './tmux-cli.js';
export { locateTmux, MIN_TMUX_VERSION, parseTmuxVersion, type TmuxBinary } from './tmux-cli.js';

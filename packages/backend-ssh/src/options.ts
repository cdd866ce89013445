import { readFileSync } from 'node:fs';
import {
  DEFAULT_KILL_GRACE_MS,
  exactlyOne,
  integerOption,
  invalidOption,
  knownKeys,
  nonEmptyString,
  oneOf,
  optionsObject,
} from '@procmux/core-types';

export interface SshBackendOptions {
  host: string;
  /** Default 22. */
  port?: number;
  username: string;
  /** A private key file (OpenSSH or PEM). With neither this nor `privateKey`, the agent only. */
  identityFile?: string;
  privateKey?: string | Buffer;
  /** For an encrypted key; there is never a prompt. */
  passphrase?: string;
  /** The agent's socket; default `SSH_AUTH_SOCK`; `false`: no agent. */
  agent?: string | false;
  /** A known_hosts file that must list the server's key. One of this or `hostFingerprint`. */
  knownHostsFile?: string;
  /** The server key's `SHA256:...` fingerprint (as `ssh-keygen -l` prints it). */
  hostFingerprint?: string;
  /** SSH keepalive period (default 5000 ms); 0 turns keepalive off (loss then waits for TCP). */
  keepaliveIntervalMs?: number;
  /** Unanswered keepalives before the connection counts as lost (default 3). */
  keepaliveCountMax?: number;
  /** Handshake deadline (default 20000 ms). */
  readyTimeoutMs?: number;
  /** SIGTERM → SIGKILL grace of a remote tree kill (default 3000 ms, at most 60000). */
  killGraceMs?: number;
  /**
   * What holds a session's tree on the remote host (as createTmuxBackend's option). 'auto'
   * (default): a cgroup beneath the remote shell's own where it can be made, else a pid
   * namespace there (`unshare`, `setpriv`; root, or unprivileged user namespaces), else the
   * marker sweep. 'cgroup' and 'pid-namespace' fail a start the remote host cannot give,
   * naming why (ERR_PROCESS_UNSUPPORTED); 'marker': the process group and the tree marker only.
   */
  containment?: SshContainment;
}

export type SshContainment = 'auto' | 'cgroup' | 'pid-namespace' | 'marker';

export interface ResolvedSshOptions {
  host: string;
  port: number;
  username: string;
  privateKey: string | Buffer | undefined;
  passphrase: string | undefined;
  agent: string | undefined;
  knownHosts: string | undefined;
  hostFingerprint: string | undefined;
  keepaliveIntervalMs: number;
  keepaliveCountMax: number;
  readyTimeoutMs: number;
  killGraceMs: number;
  containment: SshContainment;
  /** What was offered, for the error when nothing was accepted. */
  authSummary: string;
}

const KNOWN_OPTIONS: readonly (keyof SshBackendOptions)[] = [
  'host',
  'port',
  'username',
  'identityFile',
  'privateKey',
  'passphrase',
  'agent',
  'knownHostsFile',
  'hostFingerprint',
  'keepaliveIntervalMs',
  'keepaliveCountMax',
  'readyTimeoutMs',
  'killGraceMs',
  'containment',
];

const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}=?$/;

/** Validates options and reads the key and known_hosts files; nothing connects yet. */
export function resolveSshOptions(input: SshBackendOptions): ResolvedSshOptions {
  if (input === undefined || input === null) {
    throw invalidOption('options', 'an object { host, username, knownHostsFile | hostFingerprint, ... }', {
      value: input,
    });
  }
  const options = optionsObject<SshBackendOptions>(input);
  knownKeys('options', options, KNOWN_OPTIONS);
  const host = nonEmptyString('host', options.host, { required: true, nonBlank: true });
  const username = nonEmptyString('username', options.username, { required: true, nonBlank: true });
  const port = integerOption('port', options.port, { min: 1, max: 65_535, default: 22 });
  exactlyOne(options, ['knownHostsFile', 'hostFingerprint'], 'the host key is always verified');
  const hostFingerprint = options.hostFingerprint;
  if (
    hostFingerprint !== undefined &&
    !(typeof hostFingerprint === 'string' && FINGERPRINT.test(hostFingerprint))
  ) {
    throw invalidOption('hostFingerprint', 'SHA256:<43 base64 characters>, as ssh-keygen -l prints it', {
      value: hostFingerprint,
    });
  }
  const knownHosts =
    options.knownHostsFile === undefined ? undefined : readText('knownHostsFile', options.knownHostsFile);
  if (options.identityFile !== undefined && options.privateKey !== undefined) {
    throw invalidOption('identityFile or privateKey', 'given at most one of the 2 (one key to offer)');
  }
  const privateKey =
    options.identityFile !== undefined ? readText('identityFile', options.identityFile) : options.privateKey;
  if (
    privateKey !== undefined &&
    !(typeof privateKey === 'string' ? privateKey.length > 0 : Buffer.isBuffer(privateKey))
  ) {
    // The key itself is never echoed.
    throw invalidOption('privateKey', 'a non-empty string or Buffer holding the private key');
  }
  const passphrase = nonEmptyString('passphrase', options.passphrase, { secret: true });
  if (
    options.agent !== undefined &&
    options.agent !== false &&
    (typeof options.agent !== 'string' || options.agent === '' || options.agent.includes('\0'))
  ) {
    throw invalidOption('agent', "the agent's socket path, or false for no agent", { value: options.agent });
  }
  const agent =
    options.agent === false ? undefined : (options.agent ?? (process.env.SSH_AUTH_SOCK || undefined));
  if (privateKey === undefined && agent === undefined) {
    throw invalidOption(
      'identityFile or privateKey',
      'given when no agent runs: there is no key to offer (no SSH_AUTH_SOCK, or agent: false)',
      { missing: ['identityFile', 'privateKey', 'agent'] },
    );
  }
  const offered = [
    ...(options.identityFile
      ? [`key ${options.identityFile}`]
      : privateKey !== undefined
        ? ['the given key']
        : []),
    ...(agent ? ['the agent'] : []),
  ];
  return {
    host,
    port,
    username,
    privateKey,
    passphrase,
    agent,
    knownHosts,
    hostFingerprint,
    keepaliveIntervalMs: integerOption('keepaliveIntervalMs', options.keepaliveIntervalMs, {
      min: 0,
      max: 600_000,
      default: 5_000,
    }),
    keepaliveCountMax: integerOption('keepaliveCountMax', options.keepaliveCountMax, {
      min: 1,
      max: 100,
      default: 3,
    }),
    readyTimeoutMs: integerOption('readyTimeoutMs', options.readyTimeoutMs, {
      min: 1,
      max: 600_000,
      default: 20_000,
    }),
    killGraceMs: integerOption('killGraceMs', options.killGraceMs, {
      min: 0,
      max: 60_000,
      default: DEFAULT_KILL_GRACE_MS,
    }),
    containment:
      oneOf('containment', options.containment, ['auto', 'cgroup', 'pid-namespace', 'marker'] as const) ??
      'auto',
    authSummary: offered.join(', '),
  };
}

/** The longest a lost connection goes unnoticed with keepalive on: interval × (count + 1). */
export function lossBoundMs(
  options: Pick<ResolvedSshOptions, 'keepaliveIntervalMs' | 'keepaliveCountMax'>,
): number {
  return options.keepaliveIntervalMs * (options.keepaliveCountMax + 1);
}

// A file option: a non-empty path that can be read (the known_hosts file, the identity file).
function readText(option: string, file: unknown): string {
  const path = nonEmptyString(option, file, { required: true });
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    throw invalidOption(option, 'a readable file', { value: path, cause });
  }
}

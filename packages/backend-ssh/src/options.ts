import { readFileSync } from 'node:fs';
import { DEFAULT_KILL_GRACE_MS, describe, ProcmuxError } from '@procmux/core-types';

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
}

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
  /** What was offered, for the error when nothing was accepted. */
  authSummary: string;
}

/** Validates options and reads the key and known_hosts files; nothing connects yet. */
export function resolveSshOptions(options: SshBackendOptions): ResolvedSshOptions {
  if (typeof options !== 'object' || options === null) {
    throw invalid(
      'SSH backend options must be an object { host, username, knownHostsFile | hostFingerprint, ... }',
    );
  }
  const { host, username } = options;
  if (typeof host !== 'string' || host === '')
    throw invalid(`host must be a non-empty string (got ${describe(host)})`);
  if (typeof username !== 'string' || username === '') {
    throw invalid(`username must be a non-empty string (got ${describe(username)})`);
  }
  const port = integer('port', options.port, 22, 1, 65_535);
  if ((options.knownHostsFile === undefined) === (options.hostFingerprint === undefined)) {
    throw invalid('give exactly one of knownHostsFile and hostFingerprint: the host key is always verified');
  }
  if (
    options.hostFingerprint !== undefined &&
    !/^SHA256:[A-Za-z0-9+/]{43}=?$/.test(options.hostFingerprint)
  ) {
    throw invalid(
      `hostFingerprint must look like SHA256:<43 base64 characters> (got ${describe(options.hostFingerprint)})`,
    );
  }
  const knownHosts =
    options.knownHostsFile === undefined
      ? undefined
      : readText(options.knownHostsFile, 'the known_hosts file');
  let privateKey = options.privateKey;
  if (privateKey === undefined && options.identityFile !== undefined) {
    privateKey = readText(options.identityFile, 'the identity file');
  }
  const agent =
    options.agent === false ? undefined : (options.agent ?? process.env.SSH_AUTH_SOCK ?? undefined);
  if (privateKey === undefined && agent === undefined) {
    throw invalid('no key to offer: give identityFile (or privateKey), or run an agent (SSH_AUTH_SOCK)');
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
    passphrase: options.passphrase,
    agent,
    knownHosts,
    hostFingerprint: options.hostFingerprint,
    keepaliveIntervalMs: integer('keepaliveIntervalMs', options.keepaliveIntervalMs, 5_000, 0, 600_000),
    keepaliveCountMax: integer('keepaliveCountMax', options.keepaliveCountMax, 3, 1, 100),
    readyTimeoutMs: integer('readyTimeoutMs', options.readyTimeoutMs, 20_000, 1, 600_000),
    killGraceMs: integer('killGraceMs', options.killGraceMs, DEFAULT_KILL_GRACE_MS, 0, 60_000),
    authSummary: offered.join(', '),
  };
}

/** The longest a lost connection goes unnoticed with keepalive on: interval × (count + 1). */
export function lossBoundMs(
  options: Pick<ResolvedSshOptions, 'keepaliveIntervalMs' | 'keepaliveCountMax'>,
): number {
  return options.keepaliveIntervalMs * (options.keepaliveCountMax + 1);
}

function integer(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`${name} must be an integer from ${min} to ${max} (got ${describe(value)})`);
  }
  return value;
}

function readText(file: string, what: string): string {
  if (typeof file !== 'string' || file === '')
    throw invalid(`${what} must be a path (got ${describe(file)})`);
  try {
    return readFileSync(file, 'utf8');
  } catch (cause) {
    throw new ProcmuxError('ERR_INVALID_OPTION', `cannot read ${what} ${file}`, { cause });
  }
}

function invalid(message: string): ProcmuxError {
  return new ProcmuxError('ERR_INVALID_OPTION', message);
}

import { posix } from 'node:path';
import { namespaceWords, remotePidNamespaceSupport } from '@procmux/backend-tmux';
import { invalidOption, ProcmuxError } from '@procmux/core-types';
import type {
  ProcessPtyBackend,
  ProcessSandboxBackend,
  PtyBackendHandle,
  PtyStartRequest,
  SandboxProcessHandle,
  SandboxStartRequest,
} from '@procmux/sessions';
import { SshConnection } from './connection.js';
import { lossBoundMs, type SshBackendOptions } from './options.js';
import { RemoteProcess } from './remote-process.js';
import { shQuote } from './remote-scripts.js';

/** What `createProcessSessions` takes to run every session on the remote host. */
export interface SshBackend {
  /** Pipe sessions (`startProcess`), remote cwd resolution, and `status()` for a lost connection. */
  readonly sandbox: ProcessSandboxBackend;
  /** Terminal sessions (an SSH pty per session). */
  readonly ptyBackend: ProcessPtyBackend;
  readonly connection: SshConnection;
  /** The longest a lost connection goes unnoticed (keepalive interval × (count + 1)); null without keepalive. */
  readonly lossBoundMs: number | null;
  /** Ends the connection (after `sessions.dispose()`); the remote monitors end what is left. */
  close(): void;
}

/**
 * Connects to `user@host` and returns the pieces `createProcessSessions` takes, so policy,
 * limits, owners, events, paging, screen, keys and paste work as for local sessions:
 *
 * ```ts
 * const ssh = await createSshBackend({ host, username, identityFile, knownHostsFile });
 * const sessions = createProcessSessions({ cwd: '/srv/work', sandbox: ssh.sandbox, ptyBackend: ssh.ptyBackend });
 * ```
 */
export async function createSshBackend(options: SshBackendOptions): Promise<SshBackend> {
  const connection = await SshConnection.connect(options);
  const namespace = namespaceOf(connection);
  const start = async (request: SandboxStartRequest | PtyStartRequest, workspace: string, pty: boolean) => {
    const target = remoteTarget(request);
    return RemoteProcess.start(connection, {
      ...target,
      mode: connection.options.containment,
      namespace: await namespace(),
      workspace,
      cwd: request.cwd,
      env: remoteEnv(request.env, pty ? (request as PtyStartRequest).term : undefined),
      ...(pty
        ? {
            pty: {
              term: (request as PtyStartRequest).term,
              columns: (request as PtyStartRequest).columns,
              rows: (request as PtyStartRequest).rows,
            },
          }
        : {}),
      onStdout: 'onData' in request ? request.onData : request.onStdout,
      onStderr: 'onData' in request ? request.onData : request.onStderr,
    });
  };
  // The workspace every cwd is checked against on the remote side (set by resolveCwd).
  let workspace = '/';
  const sandbox: ProcessSandboxBackend = {
    async startProcess(request): Promise<SandboxProcessHandle> {
      const remote = await start(request, workspace, false);
      return handleOf(remote);
    },
    status: () => connection.state,
    resolveCwd(root, requested) {
      if (requested === undefined) {
        if (!posix.isAbsolute(root)) {
          throw invalidOption('cwd', 'an absolute path on the remote host (the remote workspace)', {
            value: root,
          });
        }
        workspace = posix.normalize(root);
        return workspace;
      }
      if (typeof requested !== 'string') {
        throw invalidOption('cwd', 'a string path inside the workspace', { value: requested });
      }
      const target = posix.resolve(root, requested === '' ? '.' : requested);
      const rel = posix.relative(root, target);
      if (rel === '' || (!rel.startsWith('..') && !posix.isAbsolute(rel))) return target;
      throw new ProcmuxError(
        'ERR_PROCESS_POLICY',
        `cwd "${requested}" resolves outside the workspace (${root}); a session's cwd must stay inside it`,
      );
    },
  };
  const ptyBackend: ProcessPtyBackend = {
    capabilities: { resize: true },
    async startPty(request): Promise<PtyBackendHandle> {
      const remote = await start(request, workspace, true);
      return {
        ...handleOf(remote),
        release: () => remote.release(),
        resize: (columns, rows) => remote.resize(columns, rows),
        metadata: { host: connection.options.host, remotePid: remote.pid, shell: remote.shell },
      };
    },
  };
  const bound = connection.options.keepaliveIntervalMs > 0 ? lossBoundMs(connection.options) : null;
  return { sandbox, ptyBackend, connection, lossBoundMs: bound, close: () => connection.close() };
}

/**
 * The words of a pid namespace on the remote host, probed there once per connection (only
 * where the mode may use one): empty where it has none, an error naming why where the mode
 * asks for one.
 */
function namespaceOf(connection: SshConnection): () => Promise<readonly string[]> {
  const { containment, username, host, port } = connection.options;
  let probed: ReturnType<typeof remotePidNamespaceSupport> | undefined;
  return async () => {
    if (containment === 'cgroup' || containment === 'marker') return [];
    probed ??= remotePidNamespaceSupport((command) => connection.runShell(command));
    const support = await probed;
    if (support.ok) return namespaceWords(support.spec, true);
    if (containment === 'auto') return [];
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      `a session on ${username}@${host}:${port} cannot run in a pid namespace: ${support.reason}`,
    );
  };
}

/**
 * What the remote wrapper runs: a command string goes to the remote host's own shell (bash
 * where it has bash, else sh), never this host's choice of shell; a program runs as given.
 */
export function remoteTarget(request: SandboxStartRequest | PtyStartRequest): {
  kind: 'shell' | 'exec';
  file: string;
  args: string[];
} {
  if ('file' in request) {
    return request.shellCommand !== undefined
      ? { kind: 'shell', file: request.shellCommand, args: [] }
      : { kind: 'exec', file: request.file, args: request.args };
  }
  return request.shell === true || request.args.length === 0
    ? { kind: 'shell', file: [request.command, ...request.args].join(' '), args: [] }
    : { kind: 'exec', file: request.command, args: request.args };
}

function handleOf(remote: RemoteProcess): SandboxProcessHandle {
  return {
    pid: remote.pid,
    shell: remote.shell,
    containment: remote.containment,
    ref: remote.ref,
    write: (data) => remote.write(data),
    closeStdin: () => remote.closeStdin(),
    signal: (name) => remote.signal(name),
    kill: () => remote.kill(),
    release: () => remote.release(),
    wait: () => remote.wait(),
  };
}

/**
 * The remote program gets the remote login's environment plus what the request changed:
 * variables whose value differs from this host's (the registry merges this host's environment
 * into every request, and this host's PATH or HOME mean nothing there), and TERM for a terminal.
 */
export function remoteEnv(env: Record<string, string>, term: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (process.env[name] !== value) out[name] = value;
  if (term !== undefined) out.TERM = term;
  return out;
}

export { shQuote };

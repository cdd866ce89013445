import { randomBytes } from 'node:crypto';
import { remoteProgramPid } from '@procmux/backend-tmux';
import { ProcmuxError, type SignalName } from '@procmux/core-types';
import type { BackendExit } from '@procmux/sessions';
import { readWaiterExit } from '@procmux/supervisor';
import type { ClientChannel } from 'ssh2';
import type { SshConnection } from './connection.js';
import {
  dropWaiterStatusCommand,
  killerCommand,
  signalCommand,
  type WrapperCommand,
  waiterStatusCommand,
  wrapperCommand,
} from './remote-scripts.js';

export interface RemoteStart {
  /** `shell`: `file` is a command string for the remote shell (bash, else sh). */
  kind: 'shell' | 'exec';
  file: string;
  args: string[];
  workspace: string;
  cwd: string;
  env: Record<string, string>;
  /** A terminal of this size and type; without it, pipes (stdout and stderr apart). */
  pty?: { term: string; columns: number; rows: number };
  onStdout(data: string): void;
  onStderr(data: string): void;
  /** What holds the tree there, and the words of a pid namespace there (empty: none). */
  mode: WrapperCommand['mode'];
  namespace: readonly string[];
}

/** How long wait() lets output arrive after the exit status before it resolves. */
export const DRAIN_MS = 500;

const HEADER_ERRORS: Record<string, string> = {
  workspace: 'the workspace directory does not exist on the remote host',
  cwd: 'the cwd does not exist on the remote host',
  outside: 'the cwd resolves outside the workspace on the remote host',
  containment: 'the remote host cannot hold the session in a cgroup',
};

/**
 * A process on the remote host under the wrapper (remote-scripts.ts): its pid and group come
 * from the wrapper's header line, its exit from sshd's exit-status/exit-signal, its kill from
 * a second exec on the same connection. A connection lost before the exit status arrived
 * rejects wait(): the outcome is unknown, never guessed.
 */
export class RemoteProcess {
  readonly ref: string;
  pid = 0;
  monitorPid = 0;
  /** The remote shell that ran a command string (`bash`, or `sh` where there is no bash); null for a program. */
  shell: string | null = null;
  /** What holds the remote tree: a cgroup the wrapper made and joined, a pid namespace, else the marker sweep. */
  containment: 'cgroup' | 'pid-namespace' | 'marker' = 'marker';
  /** The remote session's cgroup directory (containment 'cgroup'), removed when it ends. */
  cgroup = '';
  /** A pid namespace's private directory for its waiter's status (read once the exit arrived). */
  waiterDir = '';
  #exit: { exitCode: number | null; signal: SignalName | null } | undefined;
  #settled = false;
  /** The waiter's status being read: the exit stands once it is in. */
  #exitRead: Promise<void> | undefined;
  #done: Promise<BackendExit>;
  #resolveDone!: (exit: BackendExit) => void;
  #rejectDone!: (error: Error) => void;
  #killing: Promise<void> | undefined;
  lastKill: string | undefined;

  private constructor(
    private readonly connection: SshConnection,
    private readonly channel: ClientChannel,
    readonly pty: boolean,
    readonly marker: string,
  ) {
    this.ref = `ssh:${connection.options.host}:${connection.options.port}:${this.marker}`;
    this.#done = new Promise((resolve, reject) => {
      this.#resolveDone = resolve;
      this.#rejectDone = reject;
    });
    this.#done.catch(() => {});
  }

  /** Starts the wrapper and resolves once its header names the remote pid. */
  static async start(connection: SshConnection, request: RemoteStart): Promise<RemoteProcess> {
    const nonce = randomBytes(8).toString('hex');
    const marker = `${process.pid}-ssh-${randomBytes(6).toString('hex')}`;
    const command = wrapperCommand({
      nonce,
      marker,
      graceMs: connection.options.killGraceMs,
      workspace: request.workspace,
      cwd: request.cwd,
      env: request.env,
      kind: request.kind,
      file: request.file,
      args: request.args,
      mode: request.mode,
      namespace: request.namespace,
    });
    const channel = await connection.exec(
      command,
      request.pty
        ? { term: request.pty.term, cols: request.pty.columns, rows: request.pty.rows, width: 0, height: 0 }
        : undefined,
    );
    const remote = new RemoteProcess(connection, channel, request.pty !== undefined, marker);
    await remote.#attach(nonce, request);
    return remote;
  }

  #attach(nonce: string, request: RemoteStart): Promise<void> {
    const { channel } = this;
    channel.setEncoding('utf8');
    channel.stderr.setEncoding('utf8');
    // The header comes first on stderr (pipes) or on the terminal (PTY); anything the login
    // shell printed before it is not the program's and is dropped.
    let pending = '';
    let started = false;
    return new Promise<void>((resolve, reject) => {
      const header = (data: string): string | undefined => {
        pending += data;
        const at = pending.indexOf(`${nonce}:`);
        const end = at < 0 ? -1 : pending.indexOf('\n', at);
        if (end < 0) return undefined;
        const line = pending.slice(at, end).replace(/\r$/, '');
        const rest = pending.slice(end + 1);
        pending = '';
        const [, kind, a, b, shell, held, ...dir] = line.split(':');
        if (kind === 'pid') {
          this.pid = Number(a);
          this.monitorPid = Number(b);
          this.shell = shell === undefined || shell === '' ? null : shell;
          this.containment =
            held === 'cgroup' && dir.join(':') !== ''
              ? 'cgroup'
              : held === 'pid-namespace'
                ? 'pid-namespace'
                : 'marker';
          // The last field is the cgroup, or in a pid namespace the waiter's status directory.
          if (this.containment === 'cgroup') this.cgroup = dir.join(':');
          if (this.containment === 'pid-namespace') this.waiterDir = dir.join(':');
          started = true;
          resolve();
        } else if (a === 'containment') {
          const why = [b, shell, held, ...dir].filter((word) => word !== undefined).join(':');
          reject(new ProcmuxError('ERR_PROCESS_UNSUPPORTED', `${HEADER_ERRORS.containment}: ${why}`));
        } else {
          reject(
            new ProcmuxError(
              'ERR_PROCESS_POLICY',
              `${HEADER_ERRORS[a ?? ''] ?? 'the remote wrapper failed'}: ${request.cwd}`,
            ),
          );
        }
        return rest;
      };
      const forward = (sink: (data: string) => void, headerStream: boolean) => (data: string) => {
        if (this.#settled) return;
        if (headerStream && !started) {
          const rest = header(data);
          if (rest === undefined || rest === '') return;
          sink(rest);
          return;
        }
        sink(data);
      };
      channel.on('data', forward(request.onStdout, this.pty));
      channel.stderr.on('data', forward(request.onStderr, !this.pty));
      channel.on('exit', (code: number | null, signal?: string) => {
        this.#exit =
          typeof code === 'number'
            ? { exitCode: code, signal: null }
            : { exitCode: null, signal: `SIG${String(signal ?? 'KILL').replace(/^SIG/, '')}` as SignalName };
        if (this.waiterDir !== '') this.#exitRead = this.#readWaiter(this.waiterDir);
        // Output still in flight gets a moment; then the exit stands even if the channel
        // stays open (a background child holding stdout, as the native drain allows).
        setTimeout(() => this.#settle(), DRAIN_MS).unref();
      });
      channel.on('close', () => {
        if (!started) {
          reject(
            new ProcmuxError('ERR_PROCESS_SPAWN', 'the remote wrapper ended before it started the program'),
          );
        }
        this.#settle();
      });
      const offLost = this.connection.onLost((cause) => {
        this.#settle(cause);
        if (!started) reject(cause);
      });
      this.#done.finally(offLost).catch(() => {});
    });
  }

  /**
   * util-linux 2.38's waiter exits 1 when the program died of SIGKILL it cannot re-raise; its
   * status file says so (readWaiterExit). A status that cannot be read leaves the exit as sshd
   * reported it; the monitor removes the directory when the connection is lost.
   */
  async #readWaiter(dir: string): Promise<void> {
    this.waiterDir = '';
    try {
      const { stdout } = await this.connection.run(waiterStatusCommand(dir));
      const exit = this.#exit;
      if (exit === undefined) return;
      if (exit.exitCode === null) return;
      const real = readWaiterExit({ code: exit.exitCode, signal: null }, stdout);
      this.#exit = { exitCode: real.code, signal: real.signal };
    } catch {}
  }

  #settle(lostCause?: Error): void {
    if (this.#settled) return;
    this.#settled = true;
    // A kill in flight finishes first: the session ends once its whole tree is gone, not when
    // the first process of it died of the SIGTERM. A waiter's status being read, too.
    if (this.#exit && (this.#killing || this.#exitRead)) {
      const pending = [this.#killing, this.#exitRead];
      void Promise.allSettled(pending).then(() => this.#exit && this.#resolveDone(this.#exit));
    } else if (this.#exit) this.#resolveDone(this.#exit);
    else {
      this.#rejectDone(
        new ProcmuxError(
          'ERR_PROCESS_PTY_BACKEND',
          `the SSH connection ended before the remote process's exit status arrived; its outcome is unknown${lostCause ? ` (${lostCause.message})` : ''}`,
          lostCause ? { cause: lostCause } : undefined,
        ),
      );
    }
  }

  /** Resolves on exit, after the last output; rejects when the connection was lost first. */
  wait(): Promise<BackendExit> {
    return this.#done;
  }

  write(data: string): void {
    if (this.#settled) return;
    this.channel.write(data);
  }

  closeStdin(): void {
    if (!this.#settled) this.channel.end();
  }

  resize(columns: number, rows: number): void {
    if (!this.#settled) this.channel.setWindow(rows, columns, 0, 0);
  }

  /** One signal to the program (not its tree), over a second exec. */
  async signal(name: SignalName): Promise<void> {
    if (this.#settled) return;
    // In a pid namespace the wrapper's pid is the waiter, which blocks INT and TERM: the
    // program under it gets the signal, as it would without one.
    const pid =
      this.containment === 'pid-namespace'
        ? await remoteProgramPid((command) => this.connection.runShell(command), this.pid)
        : this.pid;
    await this.connection.run(signalCommand(pid, name));
  }

  /** The remote tree kill: TERM, the grace, KILL; the group and every marked process. */
  kill(): Promise<void> {
    this.#killing ??= (async () => {
      const { stdout } = await this.connection.run(
        killerCommand(this.pid, this.marker, this.connection.options.killGraceMs, this.cgroup),
      );
      this.lastKill = stdout.trim();
    })();
    const killing = this.#killing;
    void killing.then(
      () => {
        if (this.#killing === killing) this.#killing = undefined;
      },
      () => {
        if (this.#killing === killing) this.#killing = undefined;
      },
    );
    return killing;
  }

  /** Lets the process go its own way: nothing more is read; it stays the connection's. */
  release(): void {
    if (this.waiterDir !== '' && !this.#settled) {
      void this.connection.run(dropWaiterStatusCommand(this.waiterDir)).catch(() => {});
      this.waiterDir = '';
    }
    this.#settle();
  }
}

// One tmux-held process on another machine: the same pane (start-commands.ts) and the same
// files (layout.ts) as a local one, read over the connection. Its log is streamed by one
// `tail -f` that ends once the log writer has ended, so every byte is read before the exit
// file is.
import { constants } from 'node:os';
import { ProcmuxError, type RecoveredProcessExit, type SignalName } from '@procmux/core-types';
import type { PaneContainment } from '../containment.js';
import { InOrder } from '../in-order.js';
import { encodeRef, parseExitFile, type SessionFiles } from '../layout.js';
import { resizeCommand } from '../start-commands.js';
import type { TmuxServer } from '../tmux-cli.js';
import { CG_KILL } from './cgroup-sh.js';
import { commandLine, quoteWord, type RemoteStream, type RemoteTmuxHost } from './host.js';

export interface RemotePaneOptions {
  host: RemoteTmuxHost;
  server: TmuxServer;
  name: string;
  files: SessionFiles;
  marker: string;
  pid: number | undefined;
  offset: number;
  onData(data: string): void;
  onSettled?(): void;
  /** What holds the pane's tree there (remote-containment.ts). */
  containment?: PaneContainment;
  /** The pane's cgroup directory there (containment 'cgroup'): killed with it, removed at its end. */
  cgroup?: string;
}

/**
 * `tail -c +N -f` of the log, told to end (`--pid`) once the log writer is gone: GNU tail
 * reads what is left after the watched process ended, so nothing is cut. The writer's pid is
 * in its file; tail checks it with a signal 0 between reads, no process is forked while it
 * follows. A session whose writer already ended is read to its end and not followed.
 */
function followCommand(files: SessionFiles, offset: number): string {
  const script =
    'if [ -e "$2" ]; then exec tail -c "+$(($3 + 1))" "$1"; fi; ' +
    // tmux starts the writer after the pane: at a session's start its pid may not be written yet.
    'i=0; while [ ! -s "$4" ] && [ ! -e "$2" ] && [ $i -lt 40 ]; do sleep 0.05; i=$((i+1)); done; ' +
    'if read -r w < "$4" 2>/dev/null && [ -n "$w" ]; then exec tail -s 0.05 -c "+$(($3 + 1))" --pid="$w" -f "$1"; fi; ' +
    // A session started before the writer recorded its pid: a watcher polls for the end mark
    // (not tail's child: tail would see its own unreaped zombie as alive and never end) or
    // for the log's removal by the host that saw the end.
    'w=$( (while [ ! -e "$2" ] && [ -e "$1" ]; do sleep 0.05; done) </dev/null >/dev/null 2>&1 & echo $!); ' +
    'exec tail -s 0.05 -c "+$(($3 + 1))" --pid="$w" -f "$1"';
  return `sh -c ${quoteWord(script)} procmux-follow ${commandLine([files.log, files.eof, String(offset), files.writer])}`;
}

const NUDGE_EVERY_MS = 500;
const NUDGE_TIMES = 60;

/** One SIGCHLD to the tmux server there, only when `pid` is its zombie (never another process). */
export function reapNudgeCommand(tmux: string, socket: string, pid: number): string {
  const script =
    's=$("$1" -S "$2" display-message -p "#{pid}" 2>/dev/null) || exit 0; ' +
    // biome-ignore lint/suspicious/noTemplateCurlyInString: sh's ${st##*) }: the fields after the name
    'st=$(cat "/proc/$3/stat" 2>/dev/null) || exit 0; set -- ${st##*) }; ' +
    '[ "$1" = Z ] && [ "$2" = "$s" ] && kill -CHLD "$s"; exit 0';
  return `sh -c ${quoteWord(script)} procmux-reap-nudge ${commandLine([tmux, socket, String(pid)])}`;
}

function signalName(number: number): SignalName | null {
  for (const [name, value] of Object.entries(constants.signals)) {
    if (value === number) return name as SignalName;
  }
  return null;
}

export class RemoteTmuxPane {
  readonly pid: number | undefined;
  readonly ref: string;
  readonly replayFrom: number;
  readonly metadata: Record<string, unknown>;
  /** What holds the pane's tree there: its cgroup, its pid namespace, or the marker sweep. */
  readonly containment: PaneContainment;
  readonly #exit: Promise<RecoveredProcessExit>;
  #resolve!: (exit: RecoveredProcessExit) => void;
  #reject!: (error: unknown) => void;
  #stream: RemoteStream | undefined;
  #released = false;
  #ended = false;
  // Input and resizes, in call order (in-order.ts).
  readonly #inOrder = new InOrder();

  constructor(private readonly options: RemotePaneOptions) {
    this.pid = options.pid;
    this.replayFrom = options.offset;
    this.ref = encodeRef({
      v: 1,
      socket: options.server.socket,
      session: options.name,
      log: options.files.log,
      offset: options.offset,
      marker: options.marker,
      ...(options.cgroup === undefined ? {} : { cgroup: [options.cgroup] }),
    });
    this.containment = options.containment ?? 'marker';
    this.metadata = {
      tmux: {
        host: options.host.name,
        socket: options.server.socket,
        session: options.name,
        attach: options.server.attachCommand(options.name),
      },
    };
    this.#exit = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    this.#exit.catch(() => {});
    // Not before the caller holds this handle (as the local pane): its sink is wired after.
    setImmediate(() => void this.#follow());
  }

  async #follow(): Promise<void> {
    if (this.#released) return;
    const { host, files, offset } = this.options;
    try {
      this.#stream = await host.stream(followCommand(files, offset), (data) => {
        if (!this.#released) this.options.onData(data);
      });
      await this.#stream.done;
    } catch (error) {
      if (!this.#released) this.#settle(() => this.#reject(error));
      return;
    }
    if (this.#released) return;
    await this.#end().catch((error: unknown) => this.#settle(() => this.#reject(error)));
  }

  /** The log is complete: the exit file (or tmux) says how the process ended. */
  async #end(): Promise<void> {
    const { host, server, name, files } = this.options;
    let status = parseExitFile((await host.run(`cat ${quoteWord(files.exit)} 2>/dev/null`)).stdout);
    if (!status) {
      const shown = await server.run([
        'display-message',
        '-p',
        '-t',
        name,
        '#{pane_dead_status}:#{pane_dead_signal}',
      ]);
      status = shown.code === 0 ? parseExitFile(`${shown.stdout.trim()}\n`) : undefined;
    }
    // What the pane left in its cgroup (an escapee) ends with it; the hook may have already.
    // Before the kill-session: a last session's end stops the server, and the hook's job with it.
    const cgroup =
      this.options.cgroup === undefined ? '' : `; ${CG_KILL}; cg_kill ${quoteWord(this.options.cgroup)}`;
    await host.run(
      `rm -f ${commandLine([files.log, files.exit, files.eof, files.env, files.writer])}${cgroup}`,
    );
    await server.run(['kill-session', '-t', name]);
    if (!status) {
      this.#settle(() =>
        this.#reject(
          new ProcmuxError(
            'ERR_PROCESS_PTY_BACKEND',
            `tmux session ${name} on ${host.name} vanished (killed outside procmux, or its tmux server ended); its exit status is unknown`,
          ),
        ),
      );
      return;
    }
    const exit: RecoveredProcessExit =
      status.exitCode !== null
        ? { exitCode: status.exitCode }
        : { exitCode: null, signal: status.signal === null ? null : signalName(status.signal) };
    this.#settle(() => this.#resolve(exit));
  }

  #settle(done: () => void): void {
    if (this.#ended) return;
    this.#ended = true;
    this.options.onSettled?.();
    done();
  }

  /** Exact bytes to the pane, in call order (a tmux buffer pasted raw), as the local pane. */
  write(data: string): Promise<void> {
    const bytes = Buffer.from(data, 'utf8');
    const buffer = `${this.options.name}-in`;
    return this.#inOrder.run(async () => {
      if (bytes.length === 0) return;
      await this.options.server.must(
        [
          'load-buffer',
          '-b',
          buffer,
          '-',
          ';',
          'paste-buffer',
          '-d',
          '-r',
          '-b',
          buffer,
          '-t',
          this.options.name,
        ],
        bytes,
      );
    });
  }

  async signal(name: SignalName): Promise<void> {
    const pid = this.#livePid();
    const sig = name.replace(/^SIG/, '');
    // `--` before the group: dash's kill reads `-PID` as an option (bash's does not).
    await this.options.host.run(`kill -s ${sig} -- -${pid} 2>/dev/null || kill -s ${sig} ${pid}`);
  }

  async kill(): Promise<void> {
    await this.options.host.killTree(this.#livePid(), this.options.marker, this.options.cgroup);
    this.#nudgeUntilEnded();
  }

  #nudging = false;

  /**
   * A killed pane process may die unreaped (a SIGCHLD lost in libutempter's window, unreaped.ts),
   * and the reap nudge its shell starts dies with its group or cgroup: then no pane-died hook
   * runs and the log never ends. As the local pane does from /proc, the host nudges tmux there
   * (one SIGCHLD to the server, only when the pane's process is its zombie) until the end comes.
   */
  #nudgeUntilEnded(): void {
    const pid = this.pid;
    if (this.#nudging || pid === undefined) return;
    this.#nudging = true;
    const { host, server } = this.options;
    const command = reapNudgeCommand(server.binary.path, server.socket, pid);
    const pause = () => new Promise((resolve) => setTimeout(resolve, NUDGE_EVERY_MS).unref());
    void (async () => {
      for (let i = 0; i < NUDGE_TIMES; i++) {
        await pause();
        if (this.#ended || this.#released) return;
        await host.run(command).catch(() => {});
      }
    })();
  }

  /** After the input already given, before any given later (in-order.ts). */
  resize(columns: number, rows: number): Promise<void> {
    return this.#inOrder.run(async () => {
      await this.options.server.must(resizeCommand(this.options.name, columns, rows));
    });
  }

  /** Stops reading; the process keeps running in tmux there for a later host. */
  release(): void {
    this.#released = true;
    this.#stream?.close();
  }

  wait(): Promise<RecoveredProcessExit> {
    return this.#exit;
  }

  #livePid(): number {
    if (this.pid === undefined || this.#ended) {
      throw new ProcmuxError('ERR_PROCESS_STATE', `tmux session ${this.options.name} has ended`);
    }
    return this.pid;
  }
}

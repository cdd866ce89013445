// One tmux-held process as a procmux handle: output from its byte log, input as exact bytes,
// exit status from the pane-died hook, and a tail that is complete before wait() resolves.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import { type Logger, ProcmuxError, type RecoveredProcessExit, type SignalName } from '@procmux/core-types';
import { killProcessTree } from '@procmux/kill-posix';
import { namespacedProgramPid, type SessionCgroup } from '@procmux/supervisor';
import type { PaneContainment } from './containment.js';
import { InOrder } from './in-order.js';
import { encodeRef, parseExitFile, type SessionFiles } from './layout.js';
import { LogFollower } from './log-follower.js';
import { type EndFiles, readPaneEnd } from './pane-end.js';
import { resizeCommand } from './start-commands.js';
import type { TmuxServer } from './tmux-cli.js';
import { nudgeReaper, zombieParent } from './unreaped.js';

/** How long the end waits for the log writer to set down its last bytes and close (a loaded machine is slow). */
const EOF_WAIT_MS = 30_000;

export interface PaneOptions {
  server: TmuxServer;
  name: string;
  files: SessionFiles;
  marker: string;
  pid: number | undefined;
  /** The pane's process id also when the pane is already dead (re-attach), to nudge tmux to reap it. */
  panePid?: number;
  /** Replay from this byte of the log. */
  offset: number;
  onData(data: string): void;
  /** Told once the process ended or was lost (the backend forgets the session). */
  onSettled?(): void;
  killGraceMs: number;
  /** An OS sandbox's private directory, removed with the session's files (the hook does too). */
  privateDir?: string;
  /** What holds the pane's tree (containment.ts); with a cgroup, the cgroup itself. */
  containment?: PaneContainment;
  cgroup?: SessionCgroup;
  /** Told when the pane's cgroup could not be emptied and removed (the backend's logger). */
  logger: Logger;
}

function signalName(number: number): SignalName | undefined {
  for (const [name, value] of Object.entries(constants.signals)) {
    if (value === number) return name as SignalName;
  }
  return undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

const FILES: EndFiles = { exists: existsSync, read: readText };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class TmuxPane {
  readonly pid: number | undefined;
  readonly ref: string;
  /** The stream starts at this byte of the log (0: the whole history is replayed). */
  readonly replayFrom: number;
  readonly metadata: Record<string, unknown>;
  /** What holds the pane's tree: its cgroup, its pid namespace, or the marker sweep. */
  readonly containment: PaneContainment;
  readonly #follower: LogFollower;
  readonly #exit: Promise<RecoveredProcessExit>;
  #resolve!: (exit: RecoveredProcessExit) => void;
  #reject!: (error: unknown) => void;
  #ending = false;
  #released = false;
  // Input and resizes, in call order (in-order.ts).
  readonly #inOrder = new InOrder();

  constructor(private readonly options: PaneOptions) {
    this.pid = options.pid;
    this.replayFrom = options.offset;
    this.ref = encodeRef({
      v: 1,
      socket: options.server.socket,
      session: options.name,
      log: options.files.log,
      offset: options.offset,
      marker: options.marker,
      ...(options.cgroup ? { cgroup: [...options.cgroup.dirs] } : {}),
    });
    this.containment = options.containment ?? 'marker';
    this.metadata = {
      tmux: {
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
    this.#follower = new LogFollower({
      path: options.files.log,
      offset: options.offset,
      onData: (data) => {
        if (!this.#released) options.onData(data);
      },
      onTick: () => this.#check(),
    });
    // Not before the caller holds this handle: a host wires its output sink only once
    // startPty has resolved (a few microtasks later); bytes read earlier would go nowhere.
    setImmediate(() => {
      if (!this.#released) this.#follower.start();
    });
  }

  /** Exact bytes to the pane, in call order, any size (a tmux buffer pasted raw, no bracket). */
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
    // In a pid namespace the pane's process is the waiter (it blocks INT and TERM and its death
    // ends the namespace): the program gets the signal, as it would without one.
    const program = namespacedProgramPid(pid, readText);
    if (program !== undefined) {
      process.kill(program, name);
      return;
    }
    try {
      process.kill(-pid, name);
    } catch {
      process.kill(pid, name);
    }
  }

  /**
   * Tree kill of the pane's process (escapees by marker), then every member of its cgroup (an
   * escapee that cleared its environment); the end path then closes the session.
   */
  async kill(): Promise<void> {
    const pid = this.#livePid();
    await killProcessTree(pid, { marker: this.options.marker, graceMs: this.options.killGraceMs });
    await this.options.cgroup?.kill();
  }

  /** After the input already given, before any given later (in-order.ts). */
  resize(columns: number, rows: number): Promise<void> {
    return this.#inOrder.run(async () => {
      await this.options.server.must(resizeCommand(this.options.name, columns, rows));
    });
  }

  /** Stops following; the process keeps running in tmux for a later host. */
  release(): void {
    this.#released = true;
    this.#follower.stop();
    // wait() stays pending: the process did not end, and a host that let go must not record it as lost.
  }

  wait(): Promise<RecoveredProcessExit> {
    return this.#exit;
  }

  /** Bytes of the log read so far. */
  get offset(): number {
    return this.#follower.offset;
  }

  #livePid(): number {
    if (this.pid === undefined || this.#ending) {
      throw new ProcmuxError('ERR_PROCESS_STATE', `tmux session ${this.options.name} has ended`);
    }
    return this.pid;
  }

  #check(): void {
    if (this.#ending || this.#released) return;
    const end = readPaneEnd(this.options.files, FILES);
    switch (end.kind) {
      case 'failed':
        this.#ending = true;
        void this.#logFailed().catch((error: unknown) => this.#reject(error));
        return;
      case 'exited':
        this.#ending = true;
        void this.#end(end.status).catch((error: unknown) => this.#reject(error));
        return;
      case 'unreaped':
        // tmux may run pane-died when the terminal closed but before it reaped the process
        // (measured on 3.3a under load): the status comes a moment later; ask for it, also
        // when the log writer has ended meanwhile (the pane stays, remain-on-exit).
        this.#askStatus();
        return;
      case 'lost':
        this.#ending = true;
        void this.#lost().catch((error: unknown) => this.#reject(error));
        return;
      case 'running':
        this.#nudge();
    }
  }

  #nudgedAt = 0;

  /**
   * A dead pane process tmux did not reap (a SIGCHLD lost in libutempter's window, see
   * unreaped.ts): one SIGCHLD to the server makes it reap and run the pane-died hook, whose
   * exit file the next tick reads. Checked at most 4 times a second (a /proc read).
   */
  #nudge(): void {
    const pid = this.options.panePid ?? this.pid;
    if (pid === undefined || Date.now() - this.#nudgedAt < 250) return;
    this.#nudgedAt = Date.now();
    void nudgeReaper(pid, {
      zombieParent: (p) => zombieParent(p),
      serverPid: () => this.options.server.pid(),
      kill: (p, signal) => process.kill(p, signal),
    });
  }

  #asking = false;

  #askStatus(): void {
    if (this.#asking) return;
    this.#asking = true;
    const { server, name } = this.options;
    void server
      .run(['display-message', '-p', '-t', name, '#{pane_dead_status}:#{pane_dead_signal}'])
      .then((result) => {
        const status = result.code === 0 ? parseExitFile(`${result.stdout.trim()}\n`) : undefined;
        if (this.#ending || this.#released) return;
        if (status) {
          this.#ending = true;
          void this.#end(status).catch((error: unknown) => this.#reject(error));
        } else if (result.code !== 0) {
          // The session is gone: a status the hook wrote meanwhile is its end; with none and
          // the writer ended, it is lost, never a guess.
          const end = readPaneEnd(this.options.files, FILES);
          if (end.kind === 'exited') {
            this.#ending = true;
            void this.#end(end.status).catch((error: unknown) => this.#reject(error));
          } else if (end.kind === 'lost' || (end.kind === 'unreaped' && end.eof)) {
            this.#ending = true;
            void this.#lost().catch((error: unknown) => this.#reject(error));
          }
        }
      })
      .finally(() => {
        // At most one question per 100 ms while the status is not there yet.
        setTimeout(() => {
          this.#asking = false;
        }, 100).unref();
      });
  }

  async #end(status: { exitCode: number | null; signal: number | null }): Promise<void> {
    const { server, name, files } = this.options;
    // The pane-died hook has ended the tmux session (start-commands.ts), which closed the log
    // writer's pipe holding every byte: the writer's .eof mark follows its last byte. The
    // kill-session here is for a session whose hook did not (no status, an older hook); it
    // runs while the writer finishes.
    const killed = server.run(['kill-session', '-t', name]);
    const deadline = Date.now() + EOF_WAIT_MS;
    while (!existsSync(files.eof) && Date.now() < deadline) await sleep(5);
    await killed;
    // The writer may have failed on the last bytes after the status was read: its mark comes
    // before its end mark, so it is there now if it ever will be.
    if (existsSync(files.failed)) return this.#logFailed();
    this.#follower.finish();
    await this.#closeCgroup();
    this.#cleanup();
    const signal = status.signal === null ? null : (signalName(status.signal) ?? null);
    this.options.onSettled?.();
    this.#resolve(status.exitCode !== null ? { exitCode: status.exitCode } : { exitCode: null, signal });
  }

  /**
   * The log writer could not append: what the program prints from here on could not be kept,
   * so it is ended (tree kill, escapees by marker) rather than left running unfollowed, and
   * the session ends with the reason.
   */
  async #logFailed(): Promise<void> {
    const { server, name, files } = this.options;
    await this.#killTree();
    await server.run(['kill-session', '-t', name]);
    this.#follower.finish();
    const kept = this.#follower.offset;
    await this.#closeCgroup();
    this.#cleanup();
    this.options.onSettled?.();
    this.#reject(
      new ProcmuxError(
        'ERR_PROCESS_PTY_BACKEND',
        `tmux session ${name}: its log ${files.log} could not be written past byte ${kept} (the file system is full, or a quota or file size limit was reached); the program was killed, as its output could no longer be kept`,
      ),
    );
  }

  /** The pane's process tree, escapees by marker; a tree already gone is no error. */
  async #killTree(): Promise<void> {
    if (this.pid === undefined) return;
    await killProcessTree(this.pid, { marker: this.options.marker, graceMs: this.options.killGraceMs }).catch(
      () => {},
    );
  }

  async #lost(): Promise<void> {
    const alive = (await this.options.server.run(['has-session', '-t', this.options.name])).code === 0;
    // A live session with a dead writer: read what there is, and say the stream is lost. Its
    // program is ended first: kill-session alone only hangs it up, which it may ignore.
    this.#follower.finish();
    if (alive) {
      await this.#killTree();
      await this.options.server.run(['kill-session', '-t', this.options.name]);
    }
    await this.#closeCgroup();
    this.#cleanup();
    this.options.onSettled?.();
    this.#reject(
      new ProcmuxError(
        'ERR_PROCESS_PTY_BACKEND',
        `tmux session ${this.options.name} vanished (killed outside procmux, or its tmux server ended); its exit status is unknown`,
      ),
    );
  }

  /** What the pane left in its cgroup is killed and the cgroup removed (the hook may have already). */
  async #closeCgroup(): Promise<void> {
    await this.options.cgroup
      ?.close()
      .catch((error: unknown) => warnCgroupLeft(this.options.logger, this.options.name, error));
  }

  #cleanup(): void {
    const { files } = this.options;
    for (const path of [
      files.log,
      files.exit,
      files.eof,
      files.failed,
      files.env,
      files.writer,
      files.waiter,
    ])
      rmSync(path, { force: true });
    if (this.options.privateDir !== undefined)
      rmSync(this.options.privateDir, { recursive: true, force: true });
  }
}

/** A cgroup left behind is told, never dropped: its processes may run on, and it is ours to remove. */
export function warnCgroupLeft(logger: Logger, session: string, error: unknown): void {
  logger.warn(`procmux: the cgroup of tmux session ${session} could not be emptied and removed`, {
    session,
    error: error instanceof Error ? error.message : String(error),
  });
}

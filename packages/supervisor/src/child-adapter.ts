import { type ChildProcess, spawn } from 'node:child_process';
import {
  type AdapterStdin,
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_KILL_GRACE_MS,
  type Disposer,
  envOption,
  functionOption,
  integerOption,
  type KillMode,
  type KillReport,
  type KillTreeOptions,
  MAX_KILL_GRACE_MS,
  nonEmptyString,
  OutputChannel,
  type OutputListener,
  oneOf,
  type ProcessAdapter,
  ProcmuxError,
  resolveTreeMarker,
  type SpawnTarget,
  type StdinMode,
  Utf8ChunkDecoder,
  type WaitResult,
  withTreeMarker,
} from '@procmux/core-types';
import { closeInheritedDescriptors } from '@procmux/shell-wrap';
import { loadPlatform, resolvePlatform } from './platform.js';
import { assertDirectory, assertExecutable, spawnError } from './spawn-errors.js';
import { type OpenStdinTerminal, type StdinTerminalHandle, stdinTerminalOpener } from './stdin-terminal.js';
import { resolveTarget } from './target.js';
import { checkInput, checkTarget } from './validate.js';

/**
 * A tree kill. `marker` (the child's PROCMUX_TREE value) lets @procmux/kill-posix reach
 * setsid escapees after the child itself has exited; a kill that does not know it ignores it.
 */
export type TreeKill = (pid: number, options: KillTreeOptions & { marker?: string }) => Promise<KillReport>;

/** How to start a process on plain pipes. */
export interface ChildAdapterOptions extends SpawnTarget {
  cwd?: string;
  /** The child's full environment (default: this process's); the tree marker is added. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * 'closed' (default): `input`, if any, then EOF. 'open': the caller writes through `stdin`.
   * 'terminal' (POSIX): fd 0 is a pseudo-terminal the caller writes through `stdin`
   * (`close()` sends one end-of-file); stdout and stderr stay pipes.
   */
  stdin?: StdinMode;
  /** Opens the terminal for stdin 'terminal' (default: @procmux/pty-posix's). Injected by tests. */
  openStdinTerminal?: OpenStdinTerminal;
  /** Written to stdin first. */
  input?: string | Uint8Array;
  /** Shell wrapping and the kill package follow it (default: the current platform). */
  platform?: NodeJS.Platform;
  /** The tree kill behind kill('force'); default: the platform's kill package. */
  killProcessTree?: TreeKill;
  /**
   * SIGTERM-to-SIGKILL grace of kill('force'), 0 to 60000 ms. Default 3000 ms: the tree gets
   * SIGTERM, and SIGKILL 3 s later for whatever still lives; 0 kills it at once.
   */
  killGraceMs?: number;
  /** How long wait() waits for the pipes to drain after the exit (default 250 ms). */
  drainTimeoutMs?: number;
  /** The child's PROCMUX_TREE value (default: a fresh one); the supervisor mints it first. */
  treeMarker?: string;
  /**
   * Called once the child itself exited, before wait() drains the pipes and closes a stdin
   * terminal (whose hang-up ends what was left): the moment to see what of the tree still runs.
   */
  onExit?: (pid: number, argv: readonly string[]) => Promise<void> | void;
}

/**
 * A process on plain pipes: stdout and stderr apart, stdin open or closed. The child runs
 * in its own process group (POSIX) or process group and hidden console (Windows), so a
 * tree kill reaches everything it started.
 *
 * @example
 * const child = await ChildAdapter.create({ command: 'echo hi' });
 * child.onStdout((text) => process.stdout.write(text));
 * await child.wait(); // { code: 0, signal: null }
 */
export class ChildAdapter implements ProcessAdapter {
  readonly stdioMode = 'pipe' as const;
  readonly stdin: AdapterStdin | undefined;
  private readonly stdout = new OutputChannel();
  private readonly stderr = new OutputChannel();
  private readonly waitPromise: Promise<WaitResult>;
  private exitResult: WaitResult | undefined;
  private disposed = false;

  /**
   * Validates the options, checks that `cwd` exists, loads the kill package and spawns.
   * Rejects with ERR_INVALID_OPTION for bad options, ERR_PROCESS_SPAWN when the command or
   * cwd is missing, ERR_PROCESS_UNSUPPORTED when the platform's kill package is missing.
   */
  static async create(options: ChildAdapterOptions): Promise<ChildAdapter> {
    const target = checkTarget(options);
    const cwd = nonEmptyString('cwd', options.cwd);
    const env = envOption(options.env) ?? process.env;
    const stdinMode = oneOf<StdinMode>('stdin', options.stdin, ['open', 'closed', 'terminal']) ?? 'closed';
    const input = checkInput(options.input);
    const killGraceMs = integerOption('killGraceMs', options.killGraceMs, { min: 0, max: MAX_KILL_GRACE_MS });
    const drainTimeoutMs = integerOption('drainTimeoutMs', options.drainTimeoutMs, { min: 0, max: 60_000 });
    const platform = resolvePlatform(options.platform);
    // Loaded before spawning: a run whose tree cannot be killed must not start.
    const killTree = options.killProcessTree ?? (await loadPlatform(platform).loadKill()).killProcessTree;
    if (cwd !== undefined) await assertDirectory(cwd);
    const resolved = resolveTarget(target, platform, env);
    const marker = resolveTreeMarker(options.treeMarker);
    // The wrapper below always starts (bash), so a missing program or shell is caught here.
    assertExecutable(resolved.file, cwd ?? process.cwd(), env, platform);
    const exec = closeInheritedDescriptors(
      { file: resolved.file, args: resolved.args, env: withTreeMarker(env, marker) },
      { platform },
    );
    // Opened last, so a refused spawn above leaves no terminal behind.
    const terminal =
      stdinMode === 'terminal'
        ? await (options.openStdinTerminal ?? stdinTerminalOpener(platform))()
        : undefined;
    let child: ChildProcess;
    try {
      child = spawn(exec.file, exec.args, {
        cwd,
        env: exec.env,
        stdio: terminal ? [terminal.slaveFd, 'pipe', 'pipe'] : 'pipe',
        detached: true,
        windowsHide: true,
        windowsVerbatimArguments: resolved.windowsVerbatimArguments,
      });
    } catch (error) {
      terminal?.close();
      // Some failures (ENOTDIR, EMFILE, ...) are thrown at once rather than emitted.
      throw spawnError(resolved.file, error);
    }
    const adapter = new ChildAdapter(child, {
      stdinMode,
      input,
      killTree,
      marker,
      killGraceMs: killGraceMs ?? DEFAULT_KILL_GRACE_MS,
      drainTimeoutMs: drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS,
      terminal,
      onExit: functionOption('onExit', options.onExit),
      argv: [exec.file, ...exec.args],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', (error) => reject(spawnError(resolved.file, error)));
      });
    } catch (error) {
      adapter.dispose();
      throw error;
    }
    return adapter;
  }

  private constructor(
    private readonly child: ChildProcess,
    private readonly settings: {
      stdinMode: StdinMode;
      input: string | Uint8Array | undefined;
      killTree: TreeKill;
      marker: string;
      killGraceMs: number;
      drainTimeoutMs: number;
      terminal: StdinTerminalHandle | undefined;
      onExit: ((pid: number, argv: readonly string[]) => Promise<void> | void) | undefined;
      argv: readonly string[];
    },
  ) {
    // Errors after a successful spawn (a kill of a reaped pid, EPIPE) must not crash the host.
    child.on('error', () => {});
    const exited = new Promise<WaitResult>((resolve) => {
      child.once('exit', (code, signal) => {
        // Only now: the host's slave keeps the terminal from hanging up under a program that
        // closed its stdin and runs on. Then what is left on the master is read out.
        settings.terminal?.exited();
        this.exitResult = signal !== null ? { code: null, signal } : { code: code as number, signal: null };
        resolve(this.exitResult);
      });
    });
    const drained = Promise.all([
      this.pipeOutput(child.stdout, this.stdout),
      this.pipeOutput(child.stderr, this.stderr),
      settings.terminal?.drained?.(),
    ]);
    this.waitPromise = exited.then(async (result) => {
      if (settings.onExit !== undefined && child.pid !== undefined) {
        await Promise.resolve(settings.onExit(child.pid, settings.argv)).catch(() => {});
      }
      await settleWithin(drained, settings.drainTimeoutMs);
      settings.terminal?.close();
      return result;
    });
    // A prompt written straight to the terminal (getpass) reads like one on stderr.
    // (terminal.close() drops the listener.)
    settings.terminal?.onOutput?.((text) => this.stderr.emit(text));
    this.stdin = this.setUpStdin();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  onStdout(listener: OutputListener): Disposer {
    return this.stdout.on(listener);
  }

  onStderr(listener: OutputListener): Disposer {
    return this.stderr.on(listener);
  }

  wait(): Promise<WaitResult> {
    return this.waitPromise;
  }

  /**
   * 'graceful' sends SIGTERM to the process itself (on Windows Node turns that into
   * TerminateProcess; see the README). 'force' kills the whole tree through the platform's
   * kill package, even after the process exited, since its descendants may live on.
   * Rejects with ERR_PROCESS_STATE when processes survive the tree kill.
   */
  async kill(mode: KillMode = 'force'): Promise<void> {
    oneOf<KillMode>('mode', mode, ['graceful', 'force']);
    const pid = this.child.pid;
    if (pid === undefined) return;
    if (mode === 'graceful') {
      if (this.exitResult === undefined) this.child.kill('SIGTERM');
      return;
    }
    const { killTree, killGraceMs, marker } = this.settings;
    const report = await killTree(pid, { graceMs: killGraceMs, marker });
    if (report.survivors.length > 0) {
      throw new ProcmuxError(
        'ERR_PROCESS_STATE',
        `tree kill of pid ${pid} left ${report.survivors.length} process(es) alive: ${report.survivors.join(', ')}`,
        { details: { pid, survivors: report.survivors } },
      );
    }
  }

  /** Drops listeners and closes the pipes (a grandchild holding them no longer pins the host). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stdout.dispose();
    this.stderr.dispose();
    this.child.stdin?.destroy();
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    this.settings.terminal?.close();
  }

  private pipeOutput(stream: NodeJS.ReadableStream | null, channel: OutputChannel): Promise<void> {
    if (stream === null) return Promise.resolve();
    // The decoder holds back partial characters, so no chunk splits one (and ASCII is fast).
    const decoder = new Utf8ChunkDecoder();
    // An ASCII chunk's bytes go along: the session's log copies them rather than encode the text again.
    stream.on('data', (chunk: Buffer) => {
      const text = decoder.write(chunk);
      channel.emit(text, decoder.lastWasAscii ? chunk : undefined);
    });
    let flushed = false;
    const flush = () => {
      if (flushed) return;
      flushed = true;
      channel.emit(decoder.end());
    };
    return new Promise((resolve) => {
      const done = () => {
        flush();
        resolve();
      };
      stream.once('close', done);
      stream.once('end', done);
      stream.once('error', done);
    });
  }

  private setUpStdin(): AdapterStdin | undefined {
    const { terminal } = this.settings;
    if (terminal) return this.terminalStdin(terminal);
    const pipe = this.child.stdin;
    if (pipe === null) return undefined;
    // EPIPE when the child stops reading: the bytes are unwanted, not a host failure.
    pipe.on('error', () => {});
    const { input, stdinMode } = this.settings;
    if (input !== undefined) pipe.write(input);
    if (stdinMode === 'closed') {
      pipe.end();
      return undefined;
    }
    let closed = false;
    return {
      write(data: string | Uint8Array): void {
        if (!closed && pipe.writable) pipe.write(data);
      },
      close(): void {
        if (closed) return;
        closed = true;
        pipe.end();
      },
    };
  }

  // Node's own stdin pipe is unused (fd 0 is the terminal); input goes in at the master.
  private terminalStdin(terminal: StdinTerminalHandle): AdapterStdin | undefined {
    const { input } = this.settings;
    if (input !== undefined) terminal.write(input);
    let ended = false;
    return {
      write(data: string | Uint8Array): void {
        if (!ended) terminal.write(data);
      },
      close(): void {
        if (ended) return;
        ended = true;
        terminal.endInput();
      },
    };
  }
}

/** Resolves when `promise` settles or after `ms`, whichever is first; leaves no timer behind. */
function settleWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });
}

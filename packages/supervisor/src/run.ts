import { performance } from 'node:perf_hooks';
import {
  type AdapterStdin,
  type Disposer,
  type LeftoverProcess,
  type Logger,
  type ManagedRun,
  oneOf,
  type ProcessAdapter,
  ProcmuxError,
  type RunExit,
  resolveLimit,
  type SignalName,
  type StdioMode,
  TERMINAL_COLUMNS_LIMIT,
  TERMINAL_ROWS_LIMIT,
  type TerminationReason,
  type WaitResult,
} from '@procmux/core-types';
import { CaptureBuffer } from './capture.js';
import type { NormalizedSpawn } from './spawn-options.js';
import { TerminalQueries } from './terminal-queries.js';
import { RunTimeouts } from './timeouts.js';

const REASONS: readonly TerminationReason[] = [
  'exit',
  'signal',
  'overall-timeout',
  'no-output-timeout',
  'manual-cancel',
];

export interface RunContext {
  runId: string;
  spec: NormalizedSpawn;
  logger: Logger;
  /** True when the adapter did not take `input`/`stdin` itself (PTY, adapter factory). */
  applyStdin: boolean;
  /** What of the tree outlived its process, once listed (spec.endLeftovers, pipe runs). */
  leftovers?: (() => LeftoverProcess[] | undefined) | undefined;
  /** Called once, when wait() settles. */
  onSettled: (run: SupervisedRun) => void;
}

/**
 * A started process under supervision: output is captured, passed to the caller and to the
 * screen; terminal queries are answered on a PTY; timeouts and cancel force-kill the tree;
 * once the process has exited and drained everything is released.
 */
export class SupervisedRun implements ManagedRun {
  readonly runId: string;
  readonly pid: number | undefined;
  readonly startedAt = Date.now();
  readonly stdioMode: StdioMode;
  readonly stdin: AdapterStdin | undefined;
  readonly resize?: (cols: number, rows: number) => void;
  private readonly started = performance.now();
  private readonly stdout: CaptureBuffer;
  private readonly stderr: CaptureBuffer;
  private readonly disposers: Disposer[] = [];
  private readonly timeouts: RunTimeouts;
  private readonly queries: TerminalQueries | undefined;
  private readonly exit: Promise<RunExit>;
  private forcedReason: TerminationReason | undefined;
  private killing = false;
  private screenBroken = false;
  private settled = false;

  constructor(
    private readonly adapter: ProcessAdapter,
    private readonly context: RunContext,
  ) {
    const { spec } = context;
    this.runId = context.runId;
    this.pid = adapter.pid;
    this.stdioMode = adapter.stdioMode;
    this.stdout = new CaptureBuffer(spec.maxCaptureBytes);
    this.stderr = new CaptureBuffer(spec.maxCaptureBytes);
    if (adapter.resize !== undefined) this.resize = (cols, rows) => this.resizeAdapter(cols, rows);
    // Listeners first: the screen must see the first byte, and nothing may arrive unseen.
    if (this.stdioMode === 'pty' && adapter.stdin !== undefined) {
      const stdin = adapter.stdin;
      this.queries = new TerminalQueries(
        spec.screen,
        (text) => this.feedScreen(text),
        (answer) => stdin.write(answer),
        (error) => this.warn('procmux: answering a terminal query failed', error),
      );
    }
    this.disposers.push(adapter.onStdout((chunk, bytes) => this.onOutput('stdout', chunk, bytes)));
    this.disposers.push(adapter.onStderr((chunk, bytes) => this.onOutput('stderr', chunk, bytes)));
    this.timeouts = new RunTimeouts(spec.timeoutMs, spec.noOutputTimeoutMs, (reason) => this.cancel(reason));
    const signal = spec.signal;
    if (signal !== undefined) {
      const onAbort = () => this.cancel('manual-cancel');
      signal.addEventListener('abort', onAbort, { once: true });
      this.disposers.push(() => signal.removeEventListener('abort', onAbort));
    }
    this.stdin = this.setUpStdin();
    this.exit = this.settle();
    // wait() may never be called; the run still settles and must not raise unhandled.
    this.exit.catch(() => {});
  }

  wait(): Promise<RunExit> {
    return this.exit;
  }

  /**
   * Force-kills the tree and records `reason` ('manual-cancel' by default). The first
   * forced reason wins; cancelling a settled run does nothing.
   */
  cancel(reason: TerminationReason = 'manual-cancel'): void {
    oneOf('reason', reason, REASONS);
    if (this.settled) return;
    this.forcedReason ??= reason;
    if (this.killing) return;
    this.killing = true;
    void this.forceKill(reason);
  }

  // The caller's graceful step first (see SpawnOptions.beforeForceKill), then the tree kill.
  // Without one the kill starts synchronously, as before.
  private async forceKill(reason: TerminationReason): Promise<void> {
    const before = this.context.spec.beforeForceKill;
    if (before !== undefined) {
      try {
        await before(reason);
      } catch (error) {
        this.warn('procmux: the step before the force kill failed', error);
      }
      if (this.settled) return;
    }
    try {
      await this.adapter.kill('force');
      // What left the tree (a setsid daemon without the marker) is still in the cgroup; it may
      // hold the output pipes open, so it goes now rather than when the run settles.
      await this.context.spec.cgroup?.kill();
    } catch (error) {
      this.killing = false;
      this.warn('procmux: force kill failed', error);
    }
  }

  async signal(name: SignalName): Promise<void> {
    if (this.adapter.signal) return this.adapter.signal(name);
    if (this.pid === undefined)
      throw new ProcmuxError('ERR_PROCESS_STATE', 'this run has no process id to signal');
    try {
      process.kill(this.pid, name);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'ESRCH') throw cause;
    }
  }

  /**
   * Hangs the terminal up through the adapter (a native PTY's hangUp()). False, signalling
   * nothing, for pipes, a host backend's adapter, or a run that has settled.
   */
  async hangUp(): Promise<boolean> {
    if (this.settled || this.adapter.hangUp === undefined) return false;
    // A hung-up terminal answers nothing more: an answer the program no longer reads would be
    // read by the shell it leaves, as typed keys (seen: `^[[1;1R` at a prompt after vim).
    this.queries?.dispose();
    return this.adapter.hangUp();
  }

  // The attached screen follows the terminal, or its cursor answers would be wrong.
  private resizeAdapter(cols: number, rows: number): void {
    resolveLimit('cols', cols, TERMINAL_COLUMNS_LIMIT);
    resolveLimit('rows', rows, TERMINAL_ROWS_LIMIT);
    this.adapter.resize?.(cols, rows);
    const screen = this.context.spec.screen;
    if (screen === undefined || this.screenBroken) return;
    try {
      screen.resize(cols, rows);
    } catch (error) {
      this.warn('procmux: the screen could not be resized', error);
    }
  }

  private setUpStdin(): AdapterStdin | undefined {
    const { spec, applyStdin } = this.context;
    const stdin = this.adapter.stdin;
    if (!applyStdin) return stdin;
    if (spec.input !== undefined) stdin?.write(spec.input);
    if (spec.stdin === 'open') return stdin;
    stdin?.close();
    return undefined;
  }

  private onOutput(stream: 'stdout' | 'stderr', chunk: string, bytes?: Uint8Array): void {
    this.timeouts.touch();
    if (stream === 'stdout' && this.queries !== undefined) {
      const text = this.queries.filter(chunk);
      // The bytes still match only a chunk the filter left as it was.
      this.deliver(stream, text, text === chunk ? bytes : undefined);
    } else {
      this.deliver(stream, chunk, bytes);
    }
  }

  private deliver(stream: 'stdout' | 'stderr', text: string, bytes?: Uint8Array): void {
    if (text.length === 0) return;
    // On a PTY, TerminalQueries feeds the screen (it must, before answering a query).
    if (this.queries === undefined || stream === 'stderr') this.feedScreen(text);
    (stream === 'stdout' ? this.stdout : this.stderr).append(text);
    const callback = stream === 'stdout' ? this.context.spec.onStdout : this.context.spec.onStderr;
    if (callback === undefined) return;
    try {
      callback(text, bytes);
    } catch (error) {
      this.warn(`procmux: the ${stream} callback threw`, error);
    }
  }

  private feedScreen(text: string): void {
    const screen = this.context.spec.screen;
    if (screen === undefined || this.screenBroken) return;
    try {
      screen.feed(text);
    } catch (error) {
      // A screen its owner disposed throws; the run goes on without it.
      this.screenBroken = true;
      this.warn('procmux: the screen refused output; it is no longer fed', error);
    }
  }

  private warn(message: string, error: unknown): void {
    this.context.logger.warn(message, { runId: this.runId, error: errorMessage(error) });
  }

  private async settle(): Promise<RunExit> {
    let result: WaitResult;
    try {
      result = await this.adapter.wait();
      // What the session started and left behind (a daemon, a setsid escapee) ends with it.
      await this.context.spec.cgroup
        ?.close()
        .catch((error: unknown) => this.warn("procmux: the session's cgroup could not be removed", error));
    } finally {
      this.release();
    }
    const reason = this.forcedReason ?? (result.signal !== null ? 'signal' : 'exit');
    const leftovers = this.context.spec.endLeftovers ? this.context.leftovers?.() : undefined;
    return {
      ...(leftovers !== undefined ? { leftovers } : {}),
      reason,
      exitCode: result.code,
      signal: result.signal,
      durationMs: Math.round(performance.now() - this.started),
      stdout: this.stdout.text(),
      stderr: this.stderr.text(),
      truncated: this.stdout.truncated || this.stderr.truncated,
      timedOut: reason === 'overall-timeout' || reason === 'no-output-timeout',
      noOutputTimedOut: reason === 'no-output-timeout',
      stdioMode: this.stdioMode,
    };
  }

  private release(): void {
    this.settled = true;
    this.timeouts.dispose();
    if (this.queries !== undefined) {
      this.deliver('stdout', this.queries.flush());
      this.queries.dispose();
    }
    for (const dispose of this.disposers.splice(0)) dispose();
    try {
      this.adapter.dispose();
    } catch (error) {
      this.warn('procmux: disposing the adapter failed', error);
    }
    this.context.onSettled(this);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

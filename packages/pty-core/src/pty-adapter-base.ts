import { TerminalModeTracker } from '@procmux/ansi';
import {
  type Disposer,
  type KillMode,
  OutputChannel,
  type OutputListener,
  type PtyAdapterStdin,
  type PtyProcessAdapter,
  type WaitResult,
} from '@procmux/core-types';
import { checkKillMode, checkPtyInput, checkPtySize, type PtyKillTimings } from './checks.js';

const EOT = '\x04';

/**
 * What every PTY adapter does the same way, whatever the platform (as node-pty's Terminal
 * base does for its Unix and Windows terminals): the argument checks, output delivery with
 * mode tracking, the stdin object, settle-once, and the timer that settles a force kill
 * whose exit never comes. A platform adapter supplies only its spawn (in its constructor and
 * `create`), its kill and hang-up, and its release of the terminal.
 */
export abstract class PtyAdapterBase implements PtyProcessAdapter {
  readonly stdioMode = 'pty' as const;
  abstract readonly pid: number;
  abstract readonly backend: string;
  readonly stdin: PtyAdapterStdin;
  readonly #stdout = new OutputChannel();
  readonly #modes = new TerminalModeTracker();
  readonly #exit: Promise<WaitResult>;
  readonly #timings: PtyKillTimings;
  #resolveExit!: (result: WaitResult) => void;
  #result: WaitResult | undefined;
  #forceTimer: NodeJS.Timeout | undefined;
  #disposed = false;

  protected constructor(timings: PtyKillTimings) {
    this.#timings = timings;
    this.#exit = new Promise((resolve) => {
      this.#resolveExit = resolve;
    });
    const modes = this.#modes;
    this.stdin = {
      write: (data) => this.writeInput(checkPtyInput(data)),
      close: () => this.writeInput(EOT),
      get bracketedPasteEnabled() {
        return modes.bracketedPaste;
      },
    };
  }

  onStdout(listener: OutputListener): Disposer {
    return this.#stdout.on(listener);
  }

  /** A terminal merges stderr into stdout: this never fires. */
  onStderr(_listener: OutputListener): Disposer {
    return () => {};
  }

  wait(): Promise<WaitResult> {
    return this.#exit;
  }

  /**
   * 'graceful' asks the program to stop the platform's polite way; 'force' (the default) tears
   * its tree down. If no exit is reported forceKillSettleMs after the tree kill, wait() settles
   * as SIGKILL anyway; the timer counts from the end of the tree kill, so a long grace never
   * cuts it short. Does nothing once the program has exited: its pid may already belong to
   * another process.
   */
  async kill(mode: KillMode = 'force'): Promise<void> {
    const checked = checkKillMode(mode);
    if (this.exited || this.#result !== undefined) return;
    if (checked === 'graceful') {
      this.killGracefully();
      return;
    }
    try {
      await this.killTree(this.#timings.killGraceMs);
    } finally {
      if (this.#forceTimer === undefined && !this.#disposed && this.#result === undefined) {
        this.#forceTimer = setTimeout(() => {
          this.settle({ code: null, signal: 'SIGKILL' });
          this.forceSettled();
        }, this.#timings.forceKillSettleMs);
      }
    }
  }

  /**
   * What closing the terminal window does (SIGHUP to the foreground process group, then to the
   * session leader, on POSIX). Interactive shells and editors ignore SIGTERM but end at once,
   * and cleanly, on a hang-up. False, signalling nothing, once the program has exited (its pid
   * may belong to another process) or the adapter is disposed, and where the platform has none.
   */
  async hangUp(): Promise<boolean> {
    if (this.exited || this.#result !== undefined || this.#disposed) return false;
    return this.hangUpTerminal();
  }

  /** Resizes the terminal. Ignored once disposed or exited. */
  resize(cols: number, rows: number): void {
    const size = checkPtySize(cols, rows);
    if (!this.#disposed && !this.exited) this.resizeTerminal(size.cols, size.rows);
  }

  /** Releases listeners, the timer and the terminal. wait() still settles on the exit. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#clearForceTimer();
    this.#stdout.dispose();
    this.release();
  }

  protected get disposed(): boolean {
    return this.#disposed;
  }

  /**
   * Text the program wrote: tracked for terminal modes, then handed to listeners. `bytes`, when
   * given, are exactly its UTF-8 encoding (all ASCII: the platform read them), so a session's log
   * copies them rather than encode the text again.
   */
  protected output(text: string, bytes?: Uint8Array): void {
    if (text === '' || this.#disposed) return;
    this.#modes.feed(text);
    this.#stdout.emit(text, bytes);
  }

  /** The exit; only the first call counts. */
  protected settle(result: WaitResult): void {
    if (this.#result !== undefined) return;
    this.#result = result;
    this.#clearForceTimer();
    this.#resolveExit(result);
  }

  /** The program has exited (the terminal reported it). */
  protected abstract get exited(): boolean;
  /** Writes validated input to the terminal; ignored once it cannot take any. */
  protected abstract writeInput(data: string | Uint8Array): void;
  /** The platform's polite stop: SIGTERM on POSIX, Ctrl-C into a Windows console. */
  protected abstract killGracefully(): void;
  /** The platform's hang-up of a live terminal; true when anything was signalled. */
  protected abstract hangUpTerminal(): boolean;
  /** The platform's tree kill with this grace. */
  protected abstract killTree(graceMs: number): Promise<unknown>;
  protected abstract resizeTerminal(cols: number, rows: number): void;
  /** Frees the terminal (called once, from dispose()). */
  protected abstract release(): void;
  /** Called after a force kill settled without an exit report: free what still waits for one. */
  protected forceSettled(): void {}

  #clearForceTimer(): void {
    if (this.#forceTimer !== undefined) clearTimeout(this.#forceTimer);
    this.#forceTimer = undefined;
  }
}

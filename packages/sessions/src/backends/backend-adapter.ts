import {
  type AdapterStdin,
  type Disposer,
  type KillMode,
  OutputChannel,
  type ProcessAdapter,
  type RecoveredProcessExit,
  type RecoveredProcessHandle,
  type SignalName,
  type WaitResult,
} from '@procmux/core-types';

/**
 * How a host handle reports its end; a rejected wait() means the backend lost the process.
 * The same shape as a re-attached process's (core-types), so one adapter serves both.
 */
export type BackendExit = RecoveredProcessExit;

/** The common surface of a host PTY handle, a sandbox process and a re-attached process. */
export type BackendHandle = RecoveredProcessHandle;

type Listener = (chunk: string) => void;

/**
 * Adapts a host's handle (PTY backend or sandbox) to ProcessAdapter so it runs through the
 * supervisor like a native process: same timeouts, terminal-query answers, kill and events.
 * A wait() that rejects marks the adapter `lost` and settles as SIGKILL, so the supervisor
 * finishes cleanly and the session layer can report the session `unknown` (no invented exit).
 */
export class BackendAdapter implements ProcessAdapter {
  readonly stdout = new OutputChannel();
  readonly stderr = new OutputChannel();
  readonly stdin: AdapterStdin;
  /** Present only when the backend declared it can resize. */
  resize?: (cols: number, rows: number) => void;
  lost = false;
  lostCause: unknown;
  private readonly exit: Promise<WaitResult>;

  constructor(
    readonly handle: BackendHandle,
    readonly stdioMode: 'pty' | 'pipe',
    canResize = false,
  ) {
    if (canResize && handle.resize) {
      const resize = handle.resize.bind(handle);
      this.resize = (cols, rows) => void Promise.resolve(resize(cols, rows)).catch(() => {});
    }
    this.stdin = {
      write: (data) => {
        const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
        void Promise.resolve(handle.write(text)).catch(() => {});
      },
      close: () => {
        if (stdioMode === 'pty') void Promise.resolve(handle.write('\x04')).catch(() => {});
        else if (handle.closeStdin) void Promise.resolve(handle.closeStdin()).catch(() => {});
      },
    };
    this.exit = handle.wait().then(
      (result): WaitResult => {
        if (typeof result?.exitCode === 'number') return { code: result.exitCode, signal: null };
        return { code: null, signal: result?.signal ?? 'SIGKILL' };
      },
      (cause: unknown): WaitResult => {
        this.lost = true;
        this.lostCause = cause;
        return { code: null, signal: 'SIGKILL' };
      },
    );
  }

  get pid(): number | undefined {
    return this.handle.pid;
  }

  onStdout(listener: Listener): Disposer {
    return this.stdout.on(listener);
  }

  onStderr(listener: Listener): Disposer {
    return this.stderr.on(listener);
  }

  wait(): Promise<WaitResult> {
    return this.exit;
  }

  async kill(mode: KillMode = 'force'): Promise<void> {
    try {
      if (mode === 'graceful') await this.handle.signal('SIGTERM');
      else await this.handle.kill();
    } catch {
      // A backend that cannot kill has lost the process; wait() tells the rest.
    }
  }

  async signal(name: SignalName): Promise<void> {
    await this.handle.signal(name);
  }

  dispose(): void {
    this.stdout.dispose();
    this.stderr.dispose();
  }
}

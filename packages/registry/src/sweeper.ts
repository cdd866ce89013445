// A self-rescheduling timer that runs only while there is something to sweep: each pass
// asks whether to go on, so an idle registry holds no timer and never wakes the process.

/** The timer functions the registry uses; injectable so tests can drive time. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

// Resolved at call time, so fake timers installed after import are honoured.
export const systemTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class Sweeper {
  private handle: unknown;
  private scheduled = false;

  /** `pass` sweeps and answers whether another pass is needed. */
  constructor(
    private readonly intervalMs: number,
    private readonly timers: Timers,
    private readonly pass: () => boolean,
  ) {}

  get running(): boolean {
    return this.scheduled;
  }

  /** Schedules the next pass unless one is already scheduled. */
  start(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.handle = this.timers.setTimeout(this.run, this.intervalMs);
    // A sweep is housekeeping: it must never keep the process alive.
    (this.handle as { unref?: () => unknown } | undefined)?.unref?.();
  }

  stop(): void {
    if (!this.scheduled) return;
    this.scheduled = false;
    this.timers.clearTimeout(this.handle);
    this.handle = undefined;
  }

  private readonly run = (): void => {
    this.scheduled = false;
    this.handle = undefined;
    if (this.pass()) this.start();
  };
}

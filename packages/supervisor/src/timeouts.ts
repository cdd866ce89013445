/** The two forced reasons a timer can record. */
export type TimeoutReason = 'overall-timeout' | 'no-output-timeout';

/**
 * A run's two optional deadlines, as timers (no polling): the overall one runs from the
 * start; the idle one restarts on every output chunk. The first to expire calls `onExpire`
 * once and both stop.
 */
export class RunTimeouts {
  private overall: NodeJS.Timeout | undefined;
  private idle: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    overallMs: number | undefined,
    private readonly idleMs: number | undefined,
    private readonly onExpire: (reason: TimeoutReason) => void,
  ) {
    if (overallMs !== undefined) this.overall = setTimeout(() => this.expire('overall-timeout'), overallMs);
    this.touch();
  }

  /** Output arrived: the idle deadline starts over. */
  touch(): void {
    if (this.stopped || this.idleMs === undefined) return;
    if (this.idle === undefined) this.idle = setTimeout(() => this.expire('no-output-timeout'), this.idleMs);
    else this.idle.refresh();
  }

  /** Clears both timers; later touches do nothing. */
  dispose(): void {
    this.stopped = true;
    clearTimeout(this.overall);
    clearTimeout(this.idle);
    this.overall = undefined;
    this.idle = undefined;
  }

  private expire(reason: TimeoutReason): void {
    if (this.stopped) return;
    this.dispose();
    this.onExpire(reason);
  }
}

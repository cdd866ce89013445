/** One row of the process table, as a tree kill sees it. */
export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** One-letter state; 'Z' (zombie) and 'X' (dead) count as gone. '?' where unknown. */
  readonly state: string;
  /**
   * When the process started (Linux: clock ticks since boot). Tells a process apart from a
   * later one that reused its pid; undefined where the platform does not say.
   */
  readonly startTime: number | undefined;
  /** The value of TREE_MARKER_ENV in the process's environment, where readable. */
  readonly marker: string | undefined;
}

/** The two signals a tree kill sends. */
export type TreeSignal = 'SIGTERM' | 'SIGKILL';

/** What happened to one kill(2): delivered, no such process, or not permitted. */
export type SignalOutcome = 'sent' | 'gone' | 'denied';

/**
 * Everything a tree kill does to the outside world. The platform decides the implementation
 * (src/platform.ts); tests inject fakes, so the logic runs anywhere.
 */
export interface KillEffects {
  /** Our own pid: never signalled, never walked through. */
  readonly selfPid: number;
  /** Our own tree marker, if a procmux host started us: never swept (it is our siblings' too). */
  readonly selfMarker: string | undefined;
  /** The whole process table, as consistent as the platform allows. */
  snapshot(): Promise<ProcessEntry[]>;
  /** Whether this very process (same pid and start time) still runs; zombies count as gone. */
  isAlive(entry: ProcessEntry): boolean;
  /**
   * The group this very process is in now (undefined once gone), where it can be read
   * cheaply (Linux's /proc); without it a member of a signalled group gets SIGTERM by pid too.
   */
  groupOf?(entry: ProcessEntry): number | undefined;
  /** kill(2): a positive target is a pid, a negative one a process group. */
  signal(target: number, signal: TreeSignal): SignalOutcome;
  sleep(ms: number): Promise<void>;
  now(): number;
}

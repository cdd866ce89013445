// What a benchmark case is and what it reports. A case measures one claim of the design
// against a raw baseline taken in the same run, and says whether the target was met.

/** One measured quantity: the samples it came from and how to show them. */
export interface Figure {
  /** Counted samples (warm-up excluded), in `unit`. */
  samples: number[];
  unit: string;
  /** What the table shows, e.g. `812 MB/s (790–830)`. */
  text: string;
  median: number | null;
}

/** What a case that ran reports. */
export interface Measured {
  status: 'measured';
  procmux: Figure;
  /** Null where the case has no raw baseline (the target is absolute). */
  raw: Figure | null;
  /** procmux against raw, as the target states it (`0.95×`, `+0.4 ms`). */
  ratio: string;
  pass: boolean;
  /** Sizes and run counts actually used, and anything a reader of the table must know. */
  notes: string[];
}

/** A case whose procmux package has not landed (dist missing, export missing, not implemented). */
export interface NotBuilt {
  status: 'not built';
  reason: string;
}

/** A case that threw: reported in the table, never a harness crash. */
export interface Failed {
  status: 'error';
  message: string;
}

export type Outcome = Measured | NotBuilt | Failed;

/** Everything a case may read about the run it is part of. */
export interface BenchContext {
  quick: boolean;
  /** A directory the run owns, removed at its end. */
  tmpDir: string;
  /** Progress for the terminal (stderr), never part of the table. */
  progress(message: string): void;
}

export interface BenchCase {
  /** Stable id for `--filter` and results/latest.json. */
  id: string;
  /** What is measured, with its raw baseline in brackets. */
  title: string;
  /** The target as the table shows it. */
  target: string;
  run(ctx: BenchContext): Promise<Measured>;
}

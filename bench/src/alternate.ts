// Interleaves the procmux and raw sides (A B A B …) so that load from the other tenants of a
// shared machine, thermal drift and cache state fall on both sides alike.

export interface AlternateOptions {
  /** Uncounted A B pairs first: JIT, page cache, the dynamic loader. */
  warmup: number;
  /** Counted A B pairs. */
  runs: number;
  a: () => Promise<number>;
  b: () => Promise<number>;
  /** Called after every counted pair, for progress. */
  onPair?: (index: number) => void;
}

/** Runs warm-up pairs, then counted pairs, and returns the counted samples of each side. */
export async function alternate(options: AlternateOptions): Promise<{ a: number[]; b: number[] }> {
  for (let i = 0; i < options.warmup; i++) {
    await options.a();
    await options.b();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    a.push(await options.a());
    b.push(await options.b());
    options.onPair?.(i);
  }
  return { a, b };
}

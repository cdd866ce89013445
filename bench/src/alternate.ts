// Interleaves the procmux and raw sides so that load from the other tenants of a shared
// machine, thermal drift and cache state fall on both sides alike. Pairs run A B, B A, A B …,
// since the place in a pair weighs too (the garbage a run leaves is collected in the next),
// and not the same way at every size: pipe throughput measured procmux at 0.90–0.92× raw when
// it always ran first and 0.95–0.99× when always second (200 MB in one process), while in
// --quick (50 MB) always first gave 0.84–0.91× and swapped pairs 0.64–0.74×.

export interface AlternateOptions<T = number> {
  /** Uncounted A B pairs first: JIT, page cache, the dynamic loader. */
  warmup: number;
  /** Counted pairs (A B, then B A, alternately). */
  runs: number;
  a: () => Promise<T>;
  b: () => Promise<T>;
  /** Called after every counted pair, for progress. */
  onPair?: (index: number) => void;
}

/** Runs warm-up pairs, then counted pairs, and returns the counted samples of each side. */
export async function alternate<T = number>(options: AlternateOptions<T>): Promise<{ a: T[]; b: T[] }> {
  for (let i = 0; i < options.warmup; i++) {
    await options.a();
    await options.b();
  }
  const a: T[] = [];
  const b: T[] = [];
  for (let i = 0; i < options.runs; i++) {
    if (i % 2 === 0) {
      a.push(await options.a());
      b.push(await options.b());
    } else {
      b.push(await options.b());
      a.push(await options.a());
    }
    options.onPair?.(i);
  }
  return { a, b };
}

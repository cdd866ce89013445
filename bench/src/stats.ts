// Order statistics for counted samples.

export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

/** Median of the samples (mean of the middle two for an even count). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    median: median(samples),
    min: samples.length === 0 ? Number.NaN : Math.min(...samples),
    max: samples.length === 0 ? Number.NaN : Math.max(...samples),
    n: samples.length,
  };
}

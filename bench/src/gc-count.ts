// Full (mark-compact) collections during chosen windows of a run: a side that keeps output
// alive across young-generation collections pays them, and they cost more than their CPU
// share shows (a PTY reader that stalls lets the producer stall too).
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';

export interface MajorGcCounter {
  /** Runs `work` and counts the full collections that start while it runs under `label`. */
  during<T>(label: string, work: () => Promise<T>): Promise<T>;
  /** Full collections per label so far (entries arrive asynchronously: call after a turn). */
  counts(): Record<string, number>;
  dispose(): void;
}

export function countMajorGcs(): MajorGcCounter {
  const starts: number[] = [];
  const windows: { label: string; from: number; to: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) starts.push(entry.startTime);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    async during(label, work) {
      const from = performance.now();
      try {
        return await work();
      } finally {
        windows.push({ label, from, to: performance.now() });
      }
    },
    counts() {
      const out: Record<string, number> = {};
      for (const { label } of windows) out[label] ??= 0;
      for (const start of starts) {
        const window = windows.find((w) => start >= w.from && start <= w.to);
        if (window) out[window.label]! += 1;
      }
      return out;
    },
    dispose: () => observer.disconnect(),
  };
}

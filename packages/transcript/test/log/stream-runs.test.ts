// The stream runs under the output log, at their exact edges: merging, dropping the runs that
// end at an offset, and finding the run that starts exactly at one.
import { describe, expect, it } from 'vitest';
import { StreamRuns } from '../../src/log/stream-runs.js';

function runsOf(...runs: [number, 'stdout' | 'stderr'][]): StreamRuns {
  const out = new StreamRuns();
  for (const [start, stream] of runs) out.add(start, stream);
  return out;
}

describe('StreamRuns', () => {
  it('makes one run of consecutive chunks from the same stream', () => {
    const runs = runsOf([0, 'stdout'], [3, 'stdout'], [5, 'stderr'], [7, 'stderr'], [9, 'stdout']);
    expect(runs.length).toBe(3);
    expect([0, 1, 2].map((i) => [runs.start(i), runs.end(i, 12), runs.stream(i)])).toEqual([
      [0, 5, 'stdout'],
      [5, 9, 'stderr'],
      [9, 12, 'stdout'],
    ]);
  });

  it('finds the run holding an offset, including one that starts exactly there', () => {
    const runs = runsOf([0, 'stdout'], [5, 'stderr'], [9, 'stdout'], [14, 'stderr']);
    expect([0, 4, 5, 8, 9, 13, 14, 20].map((offset) => runs.indexOf(offset))).toEqual([
      0, 0, 1, 1, 2, 2, 3, 3,
    ]);
  });

  it('drops the runs that end at or before an offset, never the newest', () => {
    const runs = runsOf([0, 'stdout'], [5, 'stderr'], [9, 'stdout']);
    runs.discardBefore(4);
    expect(runs.length).toBe(3);
    runs.discardBefore(5); // the first run ends exactly at 5
    expect(runs.length).toBe(2);
    expect([runs.start(0), runs.stream(0), runs.indexOf(9)]).toEqual([5, 'stderr', 1]);
    runs.discardBefore(100);
    expect(runs.length).toBe(1);
    expect([runs.start(0), runs.end(0, 12), runs.stream(0)]).toEqual([9, 12, 'stdout']);
  });

  it('keeps answering after thousands of runs are dropped', () => {
    const runs = new StreamRuns();
    for (let i = 0; i < 3000; i++) {
      runs.add(i * 2, i % 2 === 0 ? 'stdout' : 'stderr');
      runs.discardBefore(i * 2 - 10);
    }
    expect(runs.length).toBe(6);
    expect(runs.start(0)).toBe(5988);
    expect(runs.stream(5)).toBe('stderr');
    expect(runs.indexOf(5991)).toBe(1);
  });
});

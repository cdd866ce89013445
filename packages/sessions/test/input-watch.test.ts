import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InputProbe } from '../src/input-wait/detector.js';
import { type InputWait, InputWatch } from '../src/input-wait/input-watch.js';

// Fake time: the watch's quiet delays and ticks are moved through, never waited out, so a loaded
// machine cannot change what a test sees.
const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function harness(answer: () => InputProbe) {
  let calls = 0;
  const changes: (InputWait | null)[] = [];
  const watch = new InputWatch(
    async () => {
      calls++;
      return answer();
    },
    () => ({ rootPid: 1, kind: 'pty', prompt: 'ask>' }),
    (state) => changes.push(state),
  );
  return { watch, changes, calls: () => calls };
}

describe('InputWatch', () => {
  it('checks nothing while nobody waits or asks, even as output arrives', async () => {
    const h = harness(() => ({ waiting: true, echo: true, confidence: 'kernel' }));
    for (let i = 0; i < 20; i++) h.watch.noteOutput();
    await sleep(200);
    expect(h.calls()).toBe(0);
    expect(h.watch.state).toBeNull();
  });

  it('checks while someone waits, reports the change once, and stops checking on release', async () => {
    let waiting = false;
    const h = harness(() => ({ waiting, echo: false, confidence: 'kernel' }));
    const release = h.watch.want();
    await sleep(120);
    expect(h.calls()).toBeGreaterThan(0);
    waiting = true;
    await sleep(200);
    expect(h.watch.state).toMatchObject({ echo: false, prompt: 'ask>', confidence: 'kernel' });
    expect(h.changes.filter((c) => c !== null)).toHaveLength(1);
    release();
    const after = h.calls();
    await sleep(200);
    expect(h.calls()).toBeLessThanOrEqual(after + 1);
  });

  it('metadata asking keeps checks going for a while; stop() clears the state for good', async () => {
    const h = harness(() => ({ waiting: true, echo: true, confidence: 'heuristic' }));
    h.watch.ask();
    await sleep(150);
    expect(h.watch.state?.confidence).toBe('heuristic');
    h.watch.stop();
    expect(h.watch.state).toBeNull();
    expect(await h.watch.check()).toBeNull();
  });

  it('a detector that throws keeps the last state', async () => {
    const h = harness(() => {
      throw new Error('boom');
    });
    expect(await h.watch.check()).toBeNull();
  });
});

describe('InputWatch after a write', () => {
  it('reports nothing until a check after the write confirms the program waits again', async () => {
    const h = harness(() => ({ waiting: true, echo: true, confidence: 'kernel' }));
    await h.watch.check();
    expect(h.watch.state).not.toBeNull();
    h.watch.noteInput();
    expect(h.watch.state).toBeNull();
    await h.watch.check();
    expect(h.watch.state).not.toBeNull();
    // Confirmed with the same prompt: one wait, one change.
    expect(h.changes.filter((c) => c !== null)).toHaveLength(1);
  });
});

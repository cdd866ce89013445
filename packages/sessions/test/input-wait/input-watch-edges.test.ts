// InputWatch under fake time: when it checks, what each check is told, and what it reports.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InputProbe, ProbeFacts } from '../../src/input-wait/detector.js';
import {
  ASK_WINDOW_MS,
  CHECK_EVERY_MS,
  type InputWait,
  InputWatch,
  QUIET_BEFORE_CHECK_MS,
} from '../../src/input-wait/input-watch.js';

const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const WAITING: InputProbe = { waiting: true, echo: true, confidence: 'kernel' };
const NOT_WAITING: InputProbe = { waiting: false, echo: true, confidence: 'kernel' };

/** A watch whose detector answers `answer` (at once, or when `hold` is set, when released). */
function harness(options: { answer?: InputProbe; prompt?: string; ended?: boolean } = {}) {
  const state = {
    answer: options.answer ?? WAITING,
    prompt: options.prompt ?? 'ask>',
    ended: options.ended ?? false,
  };
  const asked: ProbeFacts[] = [];
  const changes: [InputWait | null, InputWait | null][] = [];
  let running = 0;
  let mostAtOnce = 0;
  let held: (() => void)[] | undefined;
  const watch = new InputWatch(
    async (facts) => {
      asked.push(facts);
      const answer = state.answer;
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      if (held) await new Promise<void>((resolve) => held!.push(resolve));
      running--;
      return answer;
    },
    () => (state.ended ? undefined : { rootPid: 1, kind: 'pty', prompt: state.prompt }),
    (now, previous) => changes.push([now, previous]),
  );
  return {
    watch,
    state,
    asked,
    changes,
    mostAtOnce: () => mostAtOnce,
    /** Checks from now on wait for release(). */
    hold: () => {
      held = [];
    },
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const resolve of waiting) resolve();
    },
  };
}

describe('what a check is told', () => {
  it('the facts, with how long the output has been quiet', async () => {
    const h = harness();
    h.watch.noteOutput();
    await sleep(100);
    await h.watch.check();
    expect(h.asked).toEqual([{ rootPid: 1, kind: 'pty', prompt: 'ask>', quietMs: 100, idleMs: 100 }]);
  });

  it('how long since input was written too: quiet output is not idle right after a write', async () => {
    const h = harness();
    h.watch.noteOutput();
    await sleep(5_000);
    h.watch.noteInput();
    await sleep(20);
    await h.watch.check();
    expect(h.asked.at(-1)).toMatchObject({ quietMs: 5_020, idleMs: 20 });
  });

  it('a session that cannot wait (ended, stdin closed) is not asked about, and is not waiting', async () => {
    const h = harness();
    await h.watch.check();
    expect(h.watch.state).not.toBeNull();
    h.state.ended = true;
    expect(await h.watch.check()).toBeNull();
    expect(h.watch.state).toBeNull();
    expect(h.asked).toHaveLength(1);
    expect(h.changes.at(-1)?.[0]).toBeNull();
  });
});

describe('what a check reports', () => {
  it('not waiting is no state, and no change is reported while it stays so', async () => {
    const h = harness({ answer: NOT_WAITING });
    await h.watch.check();
    await h.watch.check();
    expect(h.watch.state).toBeNull();
    expect(h.changes).toEqual([]);
  });

  it('a new echo, prompt or confidence is a change; the wait keeps its start', async () => {
    const h = harness();
    await h.watch.check();
    // Since when: the check that first saw the wait.
    const since = h.watch.state?.since;
    expect(since).toBe(Date.now());
    await sleep(1_000);
    h.state.answer = { waiting: true, echo: false, confidence: 'kernel' };
    await h.watch.check();
    expect(h.watch.state).toMatchObject({ echo: false, prompt: 'ask>', confidence: 'kernel', since });
    h.state.prompt = 'again>';
    await h.watch.check();
    expect(h.watch.state).toMatchObject({ echo: false, prompt: 'again>', since });
    h.state.answer = { waiting: true, echo: false, confidence: 'heuristic' };
    await h.watch.check();
    expect(h.watch.state).toMatchObject({ confidence: 'heuristic', since });
    expect(h.changes.map(([now]) => now?.prompt)).toEqual(['ask>', 'ask>', 'again>', 'again>']);
  });

  it('output during a check means the program moved on: its answer is not taken', async () => {
    const h = harness();
    h.hold();
    const checking = h.watch.check();
    await sleep(1);
    h.watch.noteOutput();
    h.release();
    expect(await checking).toBeNull();
    expect(h.watch.state).toBeNull();
  });

  it('after input, a check whose answer output made stale leaves the wait unconfirmed, not the old prompt', async () => {
    // IPython: a check 15 ms after Enter read its /proc while it redrew the line; the redraw's
    // output dropped that answer, and the state from before the Enter came back as current.
    const h = harness({ prompt: 'In [1]:' });
    await h.watch.check();
    expect(h.watch.state).toMatchObject({ prompt: 'In [1]:' });
    h.watch.noteInput();
    expect(h.watch.state).toBeNull();
    h.hold();
    const checking = h.watch.check();
    await sleep(1);
    h.watch.noteOutput();
    h.release();
    await checking;
    expect(h.watch.state).toBeNull();
    // A check with no output during it confirms the wait again.
    h.state.prompt = 'In [2]:';
    await h.watch.check();
    expect(h.watch.state).toMatchObject({ prompt: 'In [2]:' });
  });

  it('stop() during a check: the answer that arrives after is dropped', async () => {
    const h = harness();
    h.hold();
    const checking = h.watch.check();
    await sleep(1);
    h.watch.stop();
    h.release();
    expect(await checking).toBeNull();
    expect(h.watch.state).toBeNull();
    expect(h.changes).toEqual([]);
  });

  it('after stop() nothing is asked of the detector', async () => {
    const h = harness();
    h.watch.stop();
    expect(await h.watch.check()).toBeNull();
    expect(h.asked).toEqual([]);
  });

  it('two checks at once run one after the other, each a fresh answer', async () => {
    const h = harness({ answer: NOT_WAITING });
    h.hold();
    const first = h.watch.check();
    const second = h.watch.check();
    await sleep(1);
    expect(h.asked).toHaveLength(1);
    h.state.answer = WAITING;
    h.release();
    expect(await first).toBeNull();
    expect(await second).not.toBeNull();
    expect(h.asked).toHaveLength(2);
    expect(h.mostAtOnce()).toBe(1);
  });
});

describe('when it checks', () => {
  it('while someone waits: every CHECK_EVERY_MS, however long the output has been quiet', async () => {
    const h = harness({ answer: NOT_WAITING });
    await sleep(10_000);
    const release = h.watch.want();
    await sleep(0);
    const first = h.asked.length;
    await sleep(CHECK_EVERY_MS * 10);
    expect(h.asked.length - first).toBe(10);
    release();
  });

  it('output while someone waits: checked again once it is quiet, with the new facts', async () => {
    const h = harness({ answer: NOT_WAITING });
    const release = h.watch.want();
    await sleep(1);
    const before = h.asked.length;
    h.state.answer = WAITING;
    h.watch.noteOutput();
    await sleep(QUIET_BEFORE_CHECK_MS);
    expect(h.asked.length).toBe(before + 1);
    expect(h.asked.at(-1)?.quietMs).toBe(QUIET_BEFORE_CHECK_MS);
    expect(h.watch.state).not.toBeNull();
    release();
  });

  it('release stops the checks at once; releasing twice does not release another waiter', async () => {
    const h = harness({ answer: NOT_WAITING });
    const first = h.watch.want();
    const second = h.watch.want();
    await sleep(CHECK_EVERY_MS * 2);
    first();
    first();
    const before = h.asked.length;
    await sleep(CHECK_EVERY_MS * 4);
    expect(h.asked.length - before).toBe(4);
    second();
    const after = h.asked.length;
    await sleep(CHECK_EVERY_MS * 4);
    expect(h.asked.length).toBe(after);
  });

  it('metadata() asking keeps the checks going for the ask window, then they stop', async () => {
    const h = harness({ answer: NOT_WAITING });
    h.watch.ask();
    await sleep(ASK_WINDOW_MS / 2);
    // The program starts waiting with nobody asking again: still seen within the window.
    h.state.answer = WAITING;
    await sleep(CHECK_EVERY_MS);
    expect(h.watch.state).not.toBeNull();
    await sleep(ASK_WINDOW_MS);
    const after = h.asked.length;
    await sleep(ASK_WINDOW_MS);
    expect(h.asked.length).toBe(after);
  });

  it('no check runs after the ask window ends', async () => {
    const h = harness({ answer: NOT_WAITING });
    h.watch.ask();
    await sleep(ASK_WINDOW_MS);
    const atEnd = h.asked.length;
    await sleep(CHECK_EVERY_MS * 2);
    expect(h.asked.length).toBe(atEnd);
  });

  it('asking again the moment the window ends starts the checks again', async () => {
    const h = harness({ answer: NOT_WAITING });
    h.watch.ask();
    await sleep(ASK_WINDOW_MS);
    const atEnd = h.asked.length;
    h.watch.ask();
    await sleep(CHECK_EVERY_MS * 2);
    expect(h.asked.length).toBeGreaterThan(atEnd);
  });

  it('asking often costs one check per tick, not one per ask', async () => {
    const h = harness({ answer: NOT_WAITING });
    for (let i = 0; i < 10; i++) {
      h.watch.ask();
      await sleep(5);
    }
    expect(h.asked.length).toBeLessThanOrEqual(2);
  });

  it('nobody waiting: output costs no check', async () => {
    const h = harness();
    h.watch.noteOutput();
    h.watch.noteInput();
    await sleep(CHECK_EVERY_MS * 4);
    expect(h.asked).toEqual([]);
  });

  it('input written at a prompt with nobody waiting: checked again, and the end of the wait reported', async () => {
    const h = harness();
    await h.watch.check();
    expect(h.watch.state).not.toBeNull();
    h.state.answer = NOT_WAITING;
    h.watch.noteInput();
    await sleep(QUIET_BEFORE_CHECK_MS);
    expect(h.asked).toHaveLength(2);
    expect(h.changes.at(-1)?.[0]).toBeNull();
  });
});

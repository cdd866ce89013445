// The one-shot's input plan per platform and its watch, with a fake session and injected
// kernel effects, so the macOS and Windows paths run here too.
import type { InputWait } from '@procmux/sessions';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type OneShotInputEffects, QUIET_EOF_MS, watchOneShotInput } from '../src/one-shot-input.js';
import { oneShotInputPlan } from '../src/one-shot-plan.js';
import type { ToolSession } from '../src/types.js';

/** A session whose input state and output count the test sets; counts closeStdin calls. */
function fakeSession(state: { input: InputWait | null; bytes: number }) {
  const calls = { closeStdin: 0 };
  const session = {
    live: true,
    pid: 4242,
    checkInput: async () => state.input,
    metadata: () => ({ totalBytes: state.bytes }),
    closeStdin: async () => {
      calls.closeStdin++;
    },
  } as unknown as ToolSession;
  return { session, calls };
}

const wait = (confidence: 'kernel' | 'heuristic', prompt = 'Password:'): InputWait => ({
  since: 0,
  echo: confidence === 'kernel',
  prompt,
  confidence,
});

function effects(polls: boolean | null): OneShotInputEffects & { asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    now: () => Date.now(),
    pollsInput: async (pid) => {
      asked.push(pid);
      return polls;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('oneShotInputPlan', () => {
  it('Linux: a terminal stdin, stopped when the kernel says it waits; pipes without a PTY module', () => {
    expect(oneShotInputPlan('linux')).toEqual({
      stdin: 'terminal',
      fallbackStdin: 'open',
      stopOnKernelWait: true,
      endInputOnGuess: false,
    });
  });
  it('macOS: a terminal stdin, ended on a guess, never stopped', () => {
    expect(oneShotInputPlan('darwin')).toEqual({
      stdin: 'terminal',
      fallbackStdin: 'closed',
      stopOnKernelWait: false,
      endInputOnGuess: true,
    });
  });
  it('Windows: unchanged, end of input at once', () => {
    expect(oneShotInputPlan('win32')).toMatchObject({ stdin: 'closed', stopOnKernelWait: false });
  });
});

describe('watchOneShotInput', () => {
  it('Linux: resolves on a kernel wait, without ending the input', async () => {
    const state = { input: null as InputWait | null, bytes: 10 };
    const { session, calls } = fakeSession(state);
    const watch = watchOneShotInput(session, oneShotInputPlan('linux'), effects(true));
    await vi.advanceTimersByTimeAsync(300);
    state.input = wait('kernel');
    await vi.advanceTimersByTimeAsync(200);
    await expect(watch.waiting).resolves.toMatchObject({ prompt: 'Password:', confidence: 'kernel' });
    watch.stop();
    expect(calls.closeStdin).toBe(0);
  });

  it('Linux: a quiet command that does not poll its input keeps it (a later read is still seen)', async () => {
    const { session, calls } = fakeSession({ input: null, bytes: 0 });
    const fx = effects(false);
    const watch = watchOneShotInput(session, oneShotInputPlan('linux'), fx);
    await vi.advanceTimersByTimeAsync(QUIET_EOF_MS * 3);
    watch.stop();
    // Asked at most every 500 ms once quiet for 1 s: 2 s of asking is 4 or 5 walks, not 20.
    expect(fx.asked.length).toBeGreaterThanOrEqual(3);
    expect(fx.asked.length).toBeLessThanOrEqual(5);
    expect(fx.asked[0]).toBe(4242);
    expect(calls.closeStdin).toBe(0);
  });

  it('Linux: a quiet event loop polling its input gets end of input once', async () => {
    const { session, calls } = fakeSession({ input: null, bytes: 0 });
    const watch = watchOneShotInput(session, oneShotInputPlan('linux'), effects(true));
    await vi.advanceTimersByTimeAsync(QUIET_EOF_MS - 200);
    expect(calls.closeStdin).toBe(0);
    await vi.advanceTimersByTimeAsync(QUIET_EOF_MS * 3);
    watch.stop();
    expect(calls.closeStdin).toBe(1);
  });

  it('Linux: output restarts the quiet time', async () => {
    const state = { input: null as InputWait | null, bytes: 0 };
    const { session, calls } = fakeSession(state);
    const watch = watchOneShotInput(session, oneShotInputPlan('linux'), effects(true));
    for (let i = 0; i < 10; i++) {
      state.bytes += 5;
      await vi.advanceTimersByTimeAsync(QUIET_EOF_MS / 2);
    }
    expect(calls.closeStdin).toBe(0);
    watch.stop();
  });

  it('when the kernel cannot tell, a quiet command gets end of input (as before)', async () => {
    const { session, calls } = fakeSession({ input: null, bytes: 0 });
    const watch = watchOneShotInput(session, oneShotInputPlan('linux'), effects(null));
    await vi.advanceTimersByTimeAsync(QUIET_EOF_MS * 2);
    watch.stop();
    expect(calls.closeStdin).toBe(1);
  });

  it('macOS: a guessed prompt ends the input at once and is kept for the note; nothing stops', async () => {
    const state = { input: null as InputWait | null, bytes: 9 };
    const { session, calls } = fakeSession(state);
    const fx = effects(true);
    const watch = watchOneShotInput(session, oneShotInputPlan('darwin'), fx);
    let resolved = false;
    void watch.waiting.then(() => {
      resolved = true;
    });
    await vi.advanceTimersByTimeAsync(200);
    expect(calls.closeStdin).toBe(0);
    state.input = wait('heuristic');
    await vi.advanceTimersByTimeAsync(200);
    expect(calls.closeStdin).toBe(1);
    expect(watch.guessed()).toMatchObject({ prompt: 'Password:', confidence: 'heuristic' });
    await vi.advanceTimersByTimeAsync(QUIET_EOF_MS * 2);
    watch.stop();
    expect(calls.closeStdin).toBe(1);
    expect(resolved).toBe(false);
    // The kernel is never asked there.
    expect(fx.asked).toEqual([]);
  });

  it('macOS: quiet without a prompt gets end of input after QUIET_EOF_MS, and no note', async () => {
    const { session, calls } = fakeSession({ input: null, bytes: 0 });
    const watch = watchOneShotInput(session, oneShotInputPlan('darwin'), effects(null));
    await vi.advanceTimersByTimeAsync(QUIET_EOF_MS + 300);
    watch.stop();
    expect(calls.closeStdin).toBe(1);
    expect(watch.guessed()).toBeUndefined();
  });

  it('a heuristic wait on Linux (no /proc) neither stops nor counts as a guess', async () => {
    const { session } = fakeSession({ input: wait('heuristic'), bytes: 0 });
    const watch = watchOneShotInput(session, oneShotInputPlan('linux'), effects(null));
    await vi.advanceTimersByTimeAsync(QUIET_EOF_MS * 2);
    watch.stop();
    expect(watch.guessed()).toBeUndefined();
  });
});

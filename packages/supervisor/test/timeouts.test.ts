import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunTimeouts, type TimeoutReason } from '../src/timeouts.js';

describe('RunTimeouts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function start(overall: number | undefined, idle: number | undefined) {
    const fired: TimeoutReason[] = [];
    const timeouts = new RunTimeouts(overall, idle, (reason) => fired.push(reason));
    return { timeouts, fired };
  }

  it('fires the overall deadline however much output arrives', () => {
    const { timeouts, fired } = start(1_000, 300);
    for (let t = 0; t < 900; t += 100) {
      vi.advanceTimersByTime(100);
      timeouts.touch();
    }
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(fired).toEqual(['overall-timeout']);
  });

  it('restarts the idle deadline on every touch', () => {
    const { timeouts, fired } = start(undefined, 300);
    vi.advanceTimersByTime(250);
    timeouts.touch();
    vi.advanceTimersByTime(250);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(fired).toEqual(['no-output-timeout']);
  });

  it('fires once, then stops both timers', () => {
    const { timeouts, fired } = start(500, 100);
    vi.advanceTimersByTime(100);
    timeouts.touch();
    vi.advanceTimersByTime(1_000);
    expect(fired).toEqual(['no-output-timeout']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('holds no timer when both limits are off', () => {
    const { timeouts, fired } = start(undefined, undefined);
    timeouts.touch();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(fired).toEqual([]);
  });

  it('clears everything on dispose', () => {
    const { timeouts, fired } = start(100, 100);
    timeouts.dispose();
    timeouts.touch();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(fired).toEqual([]);
  });
});

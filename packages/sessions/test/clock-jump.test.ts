import { disposeAfterEach, isAlive, makeWorkspace, throwsWith } from '@procmux/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProcessSessions, type ProcessSessions } from '../src/index.js';

// Only Date and performance are faked: the processes, their pipes and every timer are real.
// Date is the wall clock (what a step by NTP or a resumed VM moves); performance.now() is the
// monotonic clock, which only vi.advanceTimersByTime() moves, as real time would.
const workspace = makeWorkspace();
const track = disposeAfterEach<ProcessSessions>();
const HOUR = 60 * 60 * 1000;

// Registered after disposeAfterEach, so it runs first: teardown waits on the real clock.
afterEach(() => {
  vi.useRealTimers();
});

describe('the sweep across a wall-clock jump', () => {
  it('expires neither a live nor a recently ended session when the wall clock jumps forward', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    const sessions = track(createProcessSessions({ cwd: workspace, finishedTtlMs: 5_000 }));
    const ended = await sessions.start({ command: 'echo', args: ['bye'] });
    await ended.wait({ timeoutMs: 10_000 });
    const live = await sessions.start({ command: 'sleep', args: ['30'], lifetimeMs: 60_000 });
    const endedAt = ended.metadata().endedAt!;

    vi.setSystemTime(endedAt + 2 * HOUR);
    // list() sweeps; so does every get().
    expect(sessions.list().map((m) => m.id)).toEqual([ended.id, live.id]);
    const marker = await sessions.start({ command: 'true' });
    await marker.wait({ timeoutMs: 10_000 });
    expect(sessions.get(ended.id)).toBe(ended);
    expect(live.state).toBe('running');
    // The wall clock stays for display: endedAt is what the clock said at the end.
    expect(ended.metadata().endedAt).toBe(endedAt);

    // Real time passing still counts: 4,999 ms keeps the ended one, 5,000 forgets it.
    vi.advanceTimersByTime(4_999);
    expect(sessions.get(ended.id)).toBe(ended);
    vi.advanceTimersByTime(1);
    throwsWith(() => sessions.get(ended.id), 'ERR_PROCESS_NOT_FOUND');
    // The marker ended at the same monotonic instant (the fake clock stands still): gone too.
    expect(sessions.list().map((m) => m.id)).toEqual([live.id]);
    expect(live.state).toBe('running');
    await live.kill();
    expect(isAlive(live.pid!)).toBe(false);
  });

  it('expires a live session past its lifetime on the monotonic clock, not before', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'performance'] });
    const sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({ command: 'sleep', args: ['30'], lifetimeMs: 10_000 });
    vi.setSystemTime(Date.now() + 24 * HOUR);
    // start() awaits its sweep, expiries included, before it spawns.
    const marker = await sessions.start({ command: 'true' });
    await marker.wait({ timeoutMs: 10_000 });
    expect(s.state).toBe('running');
    expect(s.metadata().endedAt).toBeNull();
    vi.advanceTimersByTime(10_000);
    sessions.list();
    await s.wait({ timeoutMs: 10_000 });
    expect(s.metadata()).toMatchObject({ state: 'expired', exitCode: null });
    expect(isAlive(s.pid!)).toBe(false);
  });
});

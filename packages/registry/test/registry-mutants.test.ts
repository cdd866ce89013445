// The registry's edges the mutation run (stryker.config.mjs) found untested, each pinned
// exactly: the clock ages are read on, empty owner parts and retention below the cap.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { monoNow } from '../src/mono-clock.js';
import { resolveOwnerKey } from '../src/owner.js';
import { endedToDrop } from '../src/retention.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('monoNow', () => {
  it('reads the monotonic clock each call, not the wall clock', () => {
    const mono = vi.spyOn(performance, 'now').mockReturnValueOnce(1_234.5).mockReturnValueOnce(1_300);
    // A wall clock stepped a day forward changes nothing.
    vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 86_400_000);
    expect(monoNow()).toBe(1_234.5);
    expect(monoNow()).toBe(1_300);
    expect(mono).toHaveBeenCalledTimes(2);
  });
});

describe('resolveOwnerKey', () => {
  it('leaves empty parts out of the key, and an all-empty scope unowned', () => {
    expect(resolveOwnerKey(undefined, { tenantId: '', userId: 'u' }, undefined)).toBe('u');
    expect(resolveOwnerKey(undefined, undefined, { tenantId: 't', userId: '', agentId: 'a' })).toBe('t:a');
    expect(resolveOwnerKey(undefined, { tenantId: '', userId: '' }, { agentId: 'a' })).toBeUndefined();
  });
});

describe('endedToDrop below the cap', () => {
  it('drops nothing while the ended records are fewer than the cap', () => {
    const records = [
      { id: 'a', endedAt: 9_100 },
      { id: 'b', endedAt: 9_200 },
      { id: 'c', endedAt: 9_300 },
    ];
    expect(endedToDrop(records, { now: 10_000, ttlMs: 1_000, maxEnded: 4 })).toEqual([]);
    expect(endedToDrop(records, { now: 10_000, ttlMs: 1_000, maxEnded: 5 })).toEqual([]);
  });
});

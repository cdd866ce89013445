import { DEFAULT_FINISHED_TTL_MS } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { ENDED_SESSIONS_LIMIT, endedToDrop, FINISHED_TTL_MS_LIMIT } from '../src/retention.js';

interface Rec {
  id: string;
  endedAt: number | null;
  reap?: boolean;
}

const rec = (id: string, endedAt: number | null, reap = false): Rec => ({ id, endedAt, reap });
const ids = (records: Rec[]) => records.map((r) => r.id);
const rule = { now: 10_000, ttlMs: 1_000, maxEnded: 100 };

describe('limits', () => {
  it('keeps ended sessions 30 minutes by default and 24 hours at most', () => {
    expect(FINISHED_TTL_MS_LIMIT).toEqual({ default: DEFAULT_FINISHED_TTL_MS, hard: 86_400_000 });
    expect(DEFAULT_FINISHED_TTL_MS).toBe(30 * 60_000);
  });

  it('keeps 100 ended sessions by default and 10,000 at most', () => {
    expect(ENDED_SESSIONS_LIMIT).toEqual({ default: 100, hard: 10_000 });
  });
});

describe('endedToDrop', () => {
  it('drops nothing from an empty registry', () => {
    expect(endedToDrop([], rule)).toEqual([]);
  });

  it('never drops a live record, however old', () => {
    expect(endedToDrop([rec('a', null), rec('b', null)], { ...rule, now: Number.MAX_SAFE_INTEGER })).toEqual(
      [],
    );
  });

  it('drops an ended record exactly when its TTL has passed', () => {
    const records = [rec('young', 9_001), rec('exact', 9_000), rec('old', 1)];
    expect(ids(endedToDrop(records, rule))).toEqual(['exact', 'old']);
  });

  it('keeps a pinned record past its TTL and past the cap, and does not count it', () => {
    const records = [rec('pinned', 1, true), rec('a', 9_500), rec('b', 9_600)];
    const dropped = endedToDrop(records, { ...rule, maxEnded: 1, pinned: (r) => r.reap === true });
    expect(ids(dropped)).toEqual(['a']);
  });

  it('past the cap drops the records that ended first, whatever their order in the registry', () => {
    const records = [rec('c', 9_300), rec('a', 9_100), rec('d', 9_400), rec('b', 9_200)];
    expect(ids(endedToDrop(records, { ...rule, maxEnded: 2 }))).toEqual(['a', 'b']);
  });

  it('counts the cap after the TTL: expired records do not push live-aged ones out', () => {
    const records = [rec('old1', 1), rec('old2', 2), rec('a', 9_500), rec('b', 9_600)];
    expect(ids(endedToDrop(records, { ...rule, maxEnded: 2 }))).toEqual(['old1', 'old2']);
  });

  it('keeps records that ended at the same moment in registry order when cutting', () => {
    const records = [rec('first', 9_500), rec('second', 9_500), rec('third', 9_500)];
    expect(ids(endedToDrop(records, { ...rule, maxEnded: 1 }))).toEqual(['first', 'second']);
  });

  it('drops nothing at exactly the cap', () => {
    const records = [rec('a', 9_500), rec('b', 9_600)];
    expect(endedToDrop(records, { ...rule, maxEnded: 2 })).toEqual([]);
  });

  it('leaves the records it was given as they were (it only selects)', () => {
    const records = [rec('b', 9_600), rec('a', 9_500)];
    endedToDrop(records, { ...rule, maxEnded: 1 });
    expect(ids(records)).toEqual(['b', 'a']);
  });

  it('accepts any iterable, such as a Map of records', () => {
    const map = new Map([
      ['a', rec('a', 1)],
      ['b', rec('b', null)],
    ]);
    expect(ids(endedToDrop(map.values(), rule))).toEqual(['a']);
  });

  it('keeps a record whose end is after the clock (the clock stepped back)', () => {
    expect(endedToDrop([rec('later', 12_000)], rule)).toEqual([]);
  });

  it('with a TTL of 1 ms drops every record that ended before now', () => {
    const records = [rec('a', 9_999), rec('b', 1), rec('now', 10_000)];
    expect(ids(endedToDrop(records, { ...rule, ttlMs: 1 }))).toEqual(['a', 'b']);
  });

  it('with a cap of 1 keeps only the record that ended last', () => {
    const records = [rec('a', 9_100), rec('last', 9_900), rec('b', 9_500)];
    expect(ids(endedToDrop(records, { ...rule, maxEnded: 1 }))).toEqual(['a', 'b']);
  });

  it('lists the expired records first, in registry order, then those past the cap, oldest first', () => {
    const records = [rec('c', 9_300), rec('old2', 5), rec('a', 9_100), rec('old1', 1), rec('b', 9_200)];
    expect(ids(endedToDrop(records, { ...rule, maxEnded: 1 }))).toEqual(['old2', 'old1', 'a', 'b']);
  });

  it('drops nothing when every record is live or pinned', () => {
    const records = [rec('live', null), rec('pinned', 1, true)];
    expect(endedToDrop(records, { ...rule, maxEnded: 1, pinned: (r) => r.reap === true })).toEqual([]);
  });
});

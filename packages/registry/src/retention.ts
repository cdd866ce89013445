import { DEFAULT_FINISHED_TTL_MS, type Limit } from '@procmux/core-types';

/** How long an ended session stays readable: 30 min by default, at most 24 h. */
export const FINISHED_TTL_MS_LIMIT: Limit = { default: DEFAULT_FINISHED_TTL_MS, hard: 24 * 60 * 60 * 1000 };

/** How many ended sessions a registry keeps readable: 100 by default, at most 10,000. */
export const ENDED_SESSIONS_LIMIT: Limit = { default: 100, hard: 10_000 };

/** What retention needs to know of a record. */
export interface RetainedRecord {
  readonly id: string;
  /** Epoch ms of the end; null while the record is live. */
  readonly endedAt: number | null;
}

export interface RetentionRule<T extends RetainedRecord = RetainedRecord> {
  /** Epoch ms now. */
  now: number;
  /** How long an ended record is kept (resolved against FINISHED_TTL_MS_LIMIT). */
  ttlMs: number;
  /** How many ended records are kept at most (resolved against ENDED_SESSIONS_LIMIT). */
  maxEnded: number;
  /** A record that must stay whatever its age (one whose process is still to be reaped). */
  pinned?(record: T): boolean;
}

/**
 * The ended records a sweep drops, in the order they ended: every one past its TTL, then,
 * past the cap, those that ended first, so many short sessions cannot pile up for the whole
 * TTL (each keeps its output). Live and pinned records are never dropped and never count.
 * Pure: the caller owns the records and the clock, so there is no timer.
 */
export function endedToDrop<T extends RetainedRecord>(records: Iterable<T>, rule: RetentionRule<T>): T[] {
  const dropped: T[] = [];
  const kept: T[] = [];
  for (const record of records) {
    if (record.endedAt === null || rule.pinned?.(record)) continue;
    if (rule.now - record.endedAt >= rule.ttlMs) dropped.push(record);
    else kept.push(record);
  }
  if (kept.length > rule.maxEnded) {
    kept.sort((a, b) => (a.endedAt as number) - (b.endedAt as number));
    dropped.push(...kept.slice(0, kept.length - rule.maxEnded));
  }
  return dropped;
}

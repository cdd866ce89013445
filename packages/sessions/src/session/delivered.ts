// What a caller has been given, kept in the durable record so that a host re-attaching after
// a restart does not hand it out again. Written throttled: at most one write per session per
// DELIVERED_WRITE_MS, never one per chunk or per poll.

import type { SessionCore } from './core.js';
import { persist } from './lifecycle.js';

/** At most one durable write per session this often for delivered output and terminal size. */
export const DELIVERED_WRITE_MS = 250;

/** A poll handed the caller the log up to `logOffset` (bytes of this session's log). */
export function noteDelivered(s: SessionCore, logOffset: number): void {
  if (s.outputBase === undefined) return;
  const bytes = s.outputBase + logOffset;
  if (bytes <= s.delivered.bytes) return;
  s.delivered.bytes = bytes;
  scheduleRecordWrite(s);
}

/**
 * A fact the record keeps but no transition writes (delivered bytes, the terminal size)
 * changed: written within DELIVERED_WRITE_MS. Only for sessions a backend could re-attach.
 */
export function scheduleRecordWrite(s: SessionCore): void {
  const d = s.delivered;
  if (d.timer !== undefined || !s.live || !s.ctx.persist || s.adapter?.handle.ref === undefined) return;
  const wait = Math.max(0, d.writtenAt + DELIVERED_WRITE_MS - Date.now());
  d.timer = setTimeout(() => {
    d.timer = undefined;
    d.writtenAt = Date.now();
    if (s.live) void persist(s, undefined);
  }, wait);
  d.timer.unref();
}

/** A throttled write still pending is done now (the host lets go of a detached session). */
export function flushRecordWrite(s: SessionCore): Promise<void> {
  const d = s.delivered;
  if (d.timer === undefined) return s.persisted;
  clearTimeout(d.timer);
  d.timer = undefined;
  d.writtenAt = Date.now();
  return s.live ? persist(s, undefined) : s.persisted;
}

/**
 * The replay reached what an earlier host delivered: that output counts as drained, and the
 * screen's next delta starts here. Polls deliver again from now on.
 */
export async function skipDelivered(s: SessionCore): Promise<void> {
  try {
    const drained = s.transcript.log.drain();
    s.transcript.live.stdout.read(drained.stdout, false);
    s.transcript.live.stderr.read(drained.stderr, false);
    if (s.screen) await s.screen.renderNew();
  } finally {
    s.replaying = false;
    s.resolveReplayed();
  }
}

// Ages (a live session's lifetime, an ended one's time since its end) are measured on the
// monotonic clock: a wall clock stepped forward (NTP, a resumed VM, a person) must not expire
// every session at once. Wall-clock times (startedAt, endedAt, expiresAt) are for display and
// durable records only. Read through `performance` each call, so tests can fake it.

/** Milliseconds on this process's monotonic clock. */
export function monoNow(): number {
  return performance.now();
}

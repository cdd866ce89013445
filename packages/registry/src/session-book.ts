import { ProcmuxError } from '@procmux/core-types';
import { endedToDrop } from './retention.js';

/** What the registry reads of a session: its id, and its ages on the monotonic clock. */
export interface BookedSession {
  readonly id: string;
  /** Starting or running: counts against maxSessions. */
  readonly live: boolean;
  /** When a live session's lifetime runs out, on the monotonic clock. */
  readonly expiresMono: number;
  /** The session's end on the monotonic clock; null while it is live. */
  readonly endedMono: number | null;
  /** The owner key it was started for (see resolveOwnerKey); undefined: any caller may use it. */
  readonly owner: string | undefined;
}

/**
 * The sessions one registry holds, and the ids it gave out. Generic over the session: the
 * host that composes a registry (sessions/src/host) keeps its live sessions here.
 */
export interface SessionBook<S extends BookedSession> {
  readonly sessions: Map<string, S>;
  /** Every id this registry gave out, pruned sessions' too: an old id never names a new session. */
  readonly issued: Set<string>;
  /**
   * Starts between their limit check and their registration: counted as live, so that
   * concurrent starts cannot all pass the check before any of them registers.
   */
  reserved: number;
}

/** Whether an id was ever given out by this registry, or names a session it holds. */
export function idTaken(book: SessionBook<BookedSession>, id: string): boolean {
  return book.issued.has(id) || book.sessions.has(id);
}

/**
 * Reserves a live-session slot synchronously (the check and the count in one step, before any
 * await), or throws ERR_PROCESS_LIMIT. A session past its lifetime does not count: the sweep
 * that follows expires it. The returned release is idempotent.
 */
export function reserveSlot(book: SessionBook<BookedSession>, maxSessions: number, now: number): () => void {
  let live = book.reserved;
  for (const session of book.sessions.values()) if (session.live && now < session.expiresMono) live += 1;
  if (live >= maxSessions) {
    throw new ProcmuxError(
      'ERR_PROCESS_LIMIT',
      `${live} sessions are running; this registry allows at most ${maxSessions}`,
    );
  }
  book.reserved += 1;
  let held = true;
  return () => {
    if (held) book.reserved -= 1;
    held = false;
  };
}

export interface SweepRule<S extends BookedSession> {
  /** Now, on the monotonic clock. */
  now: number;
  ttlMs: number;
  maxEnded: number;
  /** A session kept whatever its age (one whose process is still to be reaped). */
  pinned?(session: S): boolean;
}

/**
 * One sweep of the book (there is no timer: a host sweeps on access): the ended sessions past
 * their TTL or the cap leave the book and are returned as `dropped`; the live ones past their
 * lifetime are returned as `expiring`, still held (the host ends them).
 */
export function sweepBook<S extends BookedSession>(
  book: SessionBook<S>,
  rule: SweepRule<S>,
): { dropped: S[]; expiring: S[] } {
  const ages = [...book.sessions.values()].map((session) => ({
    id: session.id,
    endedAt: session.endedMono,
    session,
  }));
  const pinned = rule.pinned;
  const dropped = endedToDrop(ages, {
    now: rule.now,
    ttlMs: rule.ttlMs,
    maxEnded: rule.maxEnded,
    ...(pinned ? { pinned: (aged: (typeof ages)[number]) => pinned(aged.session) } : {}),
  }).map(({ session }) => session);
  for (const session of dropped) book.sessions.delete(session.id);
  const expiring = [...book.sessions.values()].filter((s) => s.live && rule.now >= s.expiresMono);
  return { dropped, expiring };
}

/**
 * The session `id` names, for `owner`: ERR_PROCESS_NOT_FOUND when the book holds none (an id of
 * another type included), ERR_PROCESS_OWNERSHIP when it belongs to another owner. An unowned
 * session, or a caller that names no owner, passes.
 */
export function lookUp<S extends BookedSession>(
  book: SessionBook<S>,
  id: unknown,
  owner: string | undefined,
): S {
  const session = typeof id === 'string' ? book.sessions.get(id) : undefined;
  if (!session) throw new ProcmuxError('ERR_PROCESS_NOT_FOUND', `no session with id ${String(id)}`);
  if (owner !== undefined && session.owner !== undefined && session.owner !== owner) {
    throw new ProcmuxError('ERR_PROCESS_OWNERSHIP', `session ${session.id} belongs to another owner`);
  }
  return session;
}

/** Every session the book holds, or those started for `owner` when one is named. */
export function ownedBy<S extends BookedSession>(book: SessionBook<S>, owner: string | undefined): S[] {
  const all = [...book.sessions.values()];
  return owner === undefined ? all : all.filter((s) => s.owner === owner);
}

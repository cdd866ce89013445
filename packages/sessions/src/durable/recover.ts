import {
  type CheckpointEntry,
  isProcmuxError,
  isTerminalState,
  type Lease,
  type ProcessEvent,
  type ProcessRecord,
  type ProcmuxErrorCode,
  RECOVERY_NAMESPACE,
} from '@procmux/core-types';
import type { SessionMetadata } from '../types.js';
import { attachWithin } from './attach.js';
import type { DurableJournal } from './journal.js';
import type { ResolvedDurability } from './options.js';
import type { ReattachSession, RecoveredSession } from './reattach.js';
import { parseEntry, serializeRecord } from './record.js';
import { replaySink } from './replay.js';
import type { RecoveryOutcome, RecoveryReport } from './report.js';
import { storeCall } from './store-call.js';

const NS = RECOVERY_NAMESPACE;

/** What recover() needs from its registry (registry.ts wires it). */
export interface RecoveryHost {
  readonly config: ResolvedDurability;
  readonly journal: DurableJournal;
  /** The registry's sessions by id. */
  readonly sessions: ReadonlyMap<string, RecoveredSession>;
  /** The registry's live-session limit and its event sink. */
  readonly context: { readonly limits: { readonly maxSessions: number }; emit(event: ProcessEvent): void };
  /** Makes a re-attached process a session of the registry. */
  readonly reattach: ReattachSession;
  /** Shared by every recover() of the registry, so runs may overlap (see RecoveryState). */
  readonly state: RecoveryState;
}

/**
 * What overlapping recover() runs of one registry share: the records one of them is taking
 * over (another run leaves them alone, so nothing is re-attached twice) and the live-session
 * slots reserved for those re-attaches. Runs overlap so that a standby host polling for
 * lapsed leases is not held up by a slow re-attach of records that lapsed earlier.
 */
export interface RecoveryState {
  readonly inFlight: Set<string>;
  reserved: number;
}

export function recoveryState(): RecoveryState {
  return { inFlight: new Set(), reserved: 0 };
}

/**
 * Reconciles every durable record of this tenant with this registry. Records live here are
 * `attached` and untouched; ended ones report `terminal` with their recorded exit code;
 * `starting|running` ones are re-attached through the recovery backend when the record
 * carries a backend ref, else atomically written `unknown` (exit code null) under a fresh
 * lease. Nothing is probed by pid, no exit is invented, nothing is spawned a second time.
 *
 * In three steps, each for every record at once: take the leases, read the records again
 * under them (one store query), then ask the backend for every process in the same turn, so a
 * backend that reaches them over a network can look them all up together.
 */
export async function recoverRecords(host: RecoveryHost): Promise<RecoveryReport> {
  await host.journal.flush();
  const entries = await storeCall('list the durable records', () => host.config.checkpoints.list(NS));
  const claims = await Promise.all(entries.map((entry) => claim(entry, host)));
  const held = claims.filter((c): c is Held => 'lease' in c);
  try {
    const fresh = held.length > 0 ? await reread(host) : new Map<string, CheckpointEntry>();
    const room = roomCounter(host);
    const settled = await Promise.all(
      held.map((c) =>
        fresh instanceof Error ? unread(c, fresh, host) : settle(c, fresh.get(c.record.id), host, room),
      ),
    );
    const byId = new Map(held.map((c, i) => [c.record.id, settled[i]!]));
    return { outcomes: claims.map((c) => ('lease' in c ? byId.get(c.record.id)! : c)) };
  } finally {
    for (const c of held) host.state.inFlight.delete(c.record.id);
  }
}

/** A record this run took the lease of, to re-attach or mark unknown. */
interface Held {
  record: ProcessRecord;
  lease: Lease;
}

/** Every record of the store, by id, read after the leases were taken; the error if that failed. */
async function reread(host: RecoveryHost): Promise<Map<string, CheckpointEntry> | Error> {
  try {
    const entries = await storeCall('read the durable records again', () => host.config.checkpoints.list(NS));
    return new Map(entries.map((e) => [e.key, e]));
  } catch (error) {
    return error as Error;
  }
}

/** A held record whose second read failed: left as it was, its lease given back. */
async function unread(c: Held, error: Error, host: RecoveryHost): Promise<RecoveryOutcome> {
  const { leases, ownerId } = host.config;
  await leases.release(NS, c.record.id, ownerId, c.lease.token).catch(() => false);
  const code: ProcmuxErrorCode = isProcmuxError(error) ? error.code : 'ERR_RECOVERY_UNKNOWN';
  return outcome(c.record.id, 'unknown', c.record, false, {
    code,
    reason: 'the record could not be read again',
  });
}

function roomCounter(host: RecoveryHost): Room {
  const { state } = host;
  const live = () => [...host.sessions.values()].filter((s) => s.live).length;
  return {
    take() {
      if (live() + state.reserved >= host.context.limits.maxSessions) return false;
      state.reserved += 1;
      return true;
    },
    give() {
      state.reserved -= 1;
    },
  };
}

interface Room {
  /** Reserves a live-session slot for a re-attach; false when maxSessions is reached. */
  take(): boolean;
  give(): void;
}

function outcome(
  id: string,
  kind: RecoveryOutcome['outcome'],
  record: Pick<ProcessRecord, 'state' | 'exitCode'> | null,
  written: boolean,
  why?: { code: ProcmuxErrorCode; reason: string },
): RecoveryOutcome {
  return {
    id,
    outcome: kind,
    state: record?.state ?? null,
    exitCode: record?.state === 'exited' ? record.exitCode : null,
    written,
    ...(why ?? {}),
  };
}

/** Decides a record that needs no lease, else takes its lease (marking it in flight here). */
async function claim(entry: CheckpointEntry, host: RecoveryHost): Promise<RecoveryOutcome | Held> {
  const parsed = parseEntry(entry, host.journal.tenant);
  if (!parsed.ok) return outcome(entry.key, 'dropped', null, false, parsed);
  const { record } = parsed;
  const local = host.sessions.get(record.id);
  if (local) {
    const m = local.metadata();
    return outcome(record.id, local.live ? 'attached' : 'terminal', m, false);
  }
  if (isTerminalState(record.state)) return outcome(record.id, 'terminal', record, false);
  // Another run of this registry is taking it over: it reports how that went.
  if (host.state.inFlight.has(record.id)) return outcome(record.id, 'attached', record, false);
  host.state.inFlight.add(record.id);

  const { leases, ownerId, limits } = host.config;
  let lease: Lease | undefined;
  try {
    lease = await leases.acquire(NS, record.id, ownerId, limits.leaseTtlMs);
  } catch {
    host.state.inFlight.delete(record.id);
    // One record's store failure must not hide what happened to the others.
    return outcome(record.id, 'unknown', record, false, {
      code: 'ERR_RECOVERY_UNKNOWN',
      reason: 'the durable store failed to give the lease of this record',
    });
  }
  if (!lease) {
    host.state.inFlight.delete(record.id);
    return outcome(record.id, 'unknown', record, false, {
      code: 'ERR_RECOVERY_OWNERSHIP',
      reason: 'a live replica holds the lease on this record',
    });
  }
  return { record, lease };
}

/** Re-attaches (or marks unknown) a record held under its lease, given its entry read again. */
async function settle(
  { record, lease }: Held,
  fresh: CheckpointEntry | undefined,
  host: RecoveryHost,
  room: Room,
): Promise<RecoveryOutcome> {
  const { leases, ownerId } = host.config;
  let adopted = false;
  try {
    // Read again under the lease: the record may have moved on since list().
    if (!fresh)
      return outcome(record.id, 'dropped', null, false, {
        code: 'ERR_RECOVERY_UNKNOWN',
        reason: 'record vanished',
      });
    const current = parseEntry(fresh, host.journal.tenant);
    if (!current.ok) return outcome(record.id, 'dropped', null, false, current);
    if (isTerminalState(current.record.state)) return outcome(record.id, 'terminal', current.record, false);
    const result = await tryReattach(current.record, fresh, lease, host, room);
    if (result.kind === 'reattached') {
      adopted = true;
      return outcome(record.id, 'reattached', result.session.metadata(), false);
    }
    if (result.kind === 'untouched')
      return outcome(record.id, 'unknown', current.record, false, result.failure);
    return await markUnknown(current.record, fresh, lease, host, result.failure);
  } catch (error) {
    const code: ProcmuxErrorCode = isProcmuxError(error) ? error.code : 'ERR_RECOVERY_UNKNOWN';
    return outcome(record.id, 'unknown', record, false, { code, reason: 'the record could not be updated' });
  } finally {
    if (!adopted) await leases.release(NS, record.id, ownerId, lease.token).catch(() => false);
  }
}

type Failure = { code: ProcmuxErrorCode; reason: string };
type Reattach =
  | { kind: 'reattached'; session: RecoveredSession }
  /** The process cannot be reached from here: the record becomes unknown. */
  | { kind: 'unknown'; failure: Failure }
  /** It could be, but not now (no room, or its host did not answer): the record stays for a later recover(). */
  | { kind: 'untouched'; failure: Failure };

/** Re-attaches through the recovery backend, or says why it could not. */
async function tryReattach(
  record: ProcessRecord,
  entry: CheckpointEntry,
  lease: Lease,
  host: RecoveryHost,
  room: Room,
): Promise<Reattach> {
  const backend = host.config.recoveryBackend;
  const ref = record.backendRef;
  if (ref === null) {
    return {
      kind: 'unknown',
      failure: { code: 'ERR_RECOVERY_UNKNOWN', reason: 'the record has no backend ref to re-attach through' },
    };
  }
  if (!backend) {
    return {
      kind: 'unknown',
      failure: { code: 'ERR_RECOVERY_UNSUPPORTED', reason: 'no recoveryBackend is configured' },
    };
  }
  if (!room.take()) {
    return {
      kind: 'untouched',
      failure: {
        code: 'ERR_RECOVERY_LIMIT',
        reason: `maxSessions (${host.context.limits.maxSessions}) live sessions run here; not re-attached`,
      },
    };
  }
  try {
    const replay = replaySink();
    const handle = await attachWithin(
      backend,
      { ...record, backendRef: ref },
      host.config.limits.attachTimeoutMs,
      replay.sink,
    );
    try {
      const { session, start } = await host.reattach(record, handle, {
        canResize: backend.capabilities?.resize === true,
        replay,
      });
      host.journal.adopt(record.id, lease.token, entry.version);
      start();
      await session.persisted;
      host.context.emit(event(session.metadata(), 'process_started', 'reattached after recovery'));
      return { kind: 'reattached', session };
    } catch (error) {
      await Promise.resolve(handle.release?.()).catch(() => {});
      throw error;
    }
  } catch (error) {
    const failure: Failure = isProcmuxError(error)
      ? { code: error.code, reason: error.message }
      : { code: 'ERR_RECOVERY_UNKNOWN', reason: 'the re-attached process could not be run' };
    // A lookup that failed says nothing of the process: writing it unknown would lose a live one.
    if (failure.code === 'ERR_RECOVERY_UNREACHABLE') return { kind: 'untouched', failure };
    return { kind: 'unknown', failure };
  } finally {
    room.give();
  }
}

/** Writes the record `unknown` (exit code null) in one compare-and-set under the lease. */
async function markUnknown(
  record: ProcessRecord,
  entry: CheckpointEntry,
  lease: Lease,
  host: RecoveryHost,
  failure: Failure,
): Promise<RecoveryOutcome> {
  const endedAt = Date.now();
  const unknown: ProcessRecord = {
    ...record,
    replica: host.config.ownerId,
    state: 'unknown',
    exitCode: null,
    signal: null,
    endedAt,
    reason: failure.reason,
  };
  await storeCall(`mark session ${record.id} unknown`, () =>
    host.config.checkpoints.compareAndSet(NS, {
      key: record.id,
      data: serializeRecord(unknown),
      expectedVersion: entry.version,
      fencingToken: lease.token,
    }),
  );
  host.context.emit(
    event(
      {
        id: record.id,
        owner: record.owner ?? undefined,
        fingerprint: record.fingerprint,
        state: 'unknown',
        startedAt: record.startedAt,
        endedAt,
        pid: record.pid ?? undefined,
        stdioMode: record.stdioMode,
        exitCode: null,
        signal: null,
      },
      'process_unknown',
      failure.reason,
    ),
  );
  return outcome(record.id, 'unknown', unknown, true, failure);
}

function event(
  m: Pick<
    SessionMetadata,
    | 'id'
    | 'owner'
    | 'fingerprint'
    | 'state'
    | 'startedAt'
    | 'endedAt'
    | 'pid'
    | 'stdioMode'
    | 'exitCode'
    | 'signal'
  >,
  type: ProcessEvent['type'],
  reason: string,
): ProcessEvent {
  return {
    type,
    sessionId: m.id,
    owner: m.owner,
    fingerprint: m.fingerprint,
    state: m.state,
    at: Date.now(),
    startedAt: m.startedAt,
    endedAt: m.endedAt,
    pid: m.pid,
    stdioMode: m.stdioMode,
    exitCode: m.exitCode,
    signal: m.signal,
    reason,
  };
}

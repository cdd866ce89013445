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
}

/**
 * Reconciles every durable record of this tenant with this registry. Records live here are
 * `attached` and untouched; ended ones report `terminal` with their recorded exit code;
 * `starting|running` ones are re-attached through the recovery backend when the record
 * carries a backend ref, else atomically written `unknown` (exit code null) under a fresh
 * lease. Nothing is probed by pid, no exit is invented, nothing is spawned a second time.
 */
export async function recoverRecords(host: RecoveryHost): Promise<RecoveryReport> {
  await host.journal.flush();
  const entries = await storeCall('list the durable records', () => host.config.checkpoints.list(NS));
  const room = roomCounter(host);
  const outcomes = await Promise.all(entries.map((entry) => recoverOne(entry, host, room)));
  return { outcomes };
}

interface Room {
  /** Reserves a live-session slot for a re-attach; false when maxSessions is reached. */
  take(): boolean;
  give(): void;
}

function roomCounter(host: RecoveryHost): Room {
  let reserved = 0;
  const live = () => [...host.sessions.values()].filter((s) => s.live).length;
  return {
    take() {
      if (live() + reserved >= host.context.limits.maxSessions) return false;
      reserved += 1;
      return true;
    },
    give() {
      reserved -= 1;
    },
  };
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

async function recoverOne(entry: CheckpointEntry, host: RecoveryHost, room: Room): Promise<RecoveryOutcome> {
  const parsed = parseEntry(entry, host.journal.tenant);
  if (!parsed.ok) return outcome(entry.key, 'dropped', null, false, parsed);
  const { record } = parsed;
  const local = host.sessions.get(record.id);
  if (local) {
    const m = local.metadata();
    return outcome(record.id, local.live ? 'attached' : 'terminal', m, false);
  }
  if (isTerminalState(record.state)) return outcome(record.id, 'terminal', record, false);

  const { leases, ownerId, limits } = host.config;
  let lease: Lease | undefined;
  try {
    lease = await leases.acquire(NS, record.id, ownerId, limits.leaseTtlMs);
  } catch {
    // One record's store failure must not hide what happened to the others.
    return outcome(record.id, 'unknown', record, false, {
      code: 'ERR_RECOVERY_UNKNOWN',
      reason: 'the durable store failed to give the lease of this record',
    });
  }
  if (!lease) {
    return outcome(record.id, 'unknown', record, false, {
      code: 'ERR_RECOVERY_OWNERSHIP',
      reason: 'a live replica holds the lease on this record',
    });
  }
  let adopted = false;
  try {
    // Read again under the lease: the record may have moved on since list().
    const fresh = await storeCall(`read session ${record.id}`, () =>
      host.config.checkpoints.get(NS, record.id),
    );
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
  /** It could be, but not now (no room): the record stays as it is for a later recover(). */
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

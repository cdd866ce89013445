import {
  isProcmuxError,
  isTerminalState,
  type Logger,
  ProcmuxError,
  RECOVERY_NAMESPACE,
  RECOVERY_RECORD_BYTES,
} from '@procmux/core-types';
import { evictFor } from './eviction.js';
import type { ResolvedDurability } from './options.js';
import { buildRecord, type RecordSource, serializeRecord } from './record.js';
import { storeCall } from './store-call.js';

const NS = RECOVERY_NAMESPACE;

/** This replica's hold on one record: the lease token it writes under and the version it last wrote. */
interface Held {
  token: number;
  version: number;
  /** Every write of this record chains here, so a slow store can never reorder them. */
  queue: Promise<void>;
  /** Set once a newer holder fenced us out: nothing more is written for this record. */
  lost: boolean;
  /** Holding a lease that the heartbeat must keep renewing. */
  live: boolean;
}

/**
 * The durable side of a registry: writes each session's record under a per-record lease.
 * Intent is written before spawn; every later transition is a compare-and-set under the lease's
 * fencing token, renewing the lease, and a terminal one releases it. While leases are held a
 * heartbeat (unref'd, a third of the TTL) renews them, so a live replica never looks crashed.
 */
export class DurableJournal {
  readonly #held = new Map<string, Held>();
  readonly #config: ResolvedDurability;
  readonly #tenant: string | null;
  readonly #logger: Logger;
  #intents: Promise<unknown> = Promise.resolve();
  #heartbeat: NodeJS.Timeout | undefined;

  constructor(config: ResolvedDurability, tenant: string | null, logger: Logger) {
    this.#config = config;
    this.#tenant = tenant;
    this.#logger = logger;
  }

  get ownerId(): string {
    return this.#config.ownerId;
  }

  get tenant(): string | null {
    return this.#tenant;
  }

  /**
   * Writes a new session's record (state `starting`) before anything is spawned: takes the
   * lease, makes room (oldest terminal records first), creates the record. Intents are
   * serialised so one registry never overshoots maxRecords.
   */
  intent(source: RecordSource): Promise<void> {
    const run = this.#intents.then(() => this.#intent(source));
    this.#intents = run.catch(() => {});
    return run;
  }

  async #intent(source: RecordSource): Promise<void> {
    const { checkpoints, leases, ownerId, limits } = this.#config;
    const id = source.metadata.id;
    const data = this.#serialize(source);
    const lease = await storeCall(`take the lease of session ${id}`, () =>
      leases.acquire(NS, id, ownerId, limits.leaseTtlMs),
    );
    if (!lease) {
      throw new ProcmuxError('ERR_RECOVERY_FENCE', `another replica holds the lease on new session ${id}`);
    }
    try {
      await evictFor(checkpoints, this.#tenant, limits.maxRecords);
      const version = await storeCall(`write the intent of session ${id}`, () =>
        checkpoints.compareAndSet(NS, { key: id, data, expectedVersion: 0, fencingToken: lease.token }),
      );
      this.#hold(id, lease.token, version);
    } catch (error) {
      await leases.release(NS, id, ownerId, lease.token).catch(() => false);
      throw error;
    }
  }

  /** Whether the store holds a record under `id` (any replica's, any state). */
  async taken(id: string): Promise<boolean> {
    const entry = await storeCall(`look up session id ${id}`, () => this.#config.checkpoints.get(NS, id));
    return entry !== undefined;
  }

  /** Takes over a record recover() holds the lease of (a re-attached session). */
  adopt(id: string, token: number, version: number): void {
    this.#hold(id, token, version);
  }

  /**
   * Writes the session's current state. Never rejects: a store failure is logged, a fence
   * conflict means another replica took the record over and stops further writes for it.
   */
  transition(source: RecordSource): Promise<void> {
    const id = source.metadata.id;
    const held = this.#held.get(id);
    if (!held) return Promise.resolve();
    let data: string;
    try {
      data = this.#serialize(source);
    } catch (error) {
      this.#warn('durable record not written', id, error);
      return held.queue;
    }
    const terminal = isTerminalState(source.metadata.state);
    if (terminal) held.live = false;
    return this.#enqueue(held, async () => {
      if (held.lost) return;
      const { checkpoints, leases, ownerId, limits } = this.#config;
      try {
        await leases.renew(NS, id, ownerId, held.token, limits.leaseTtlMs);
        held.version = await checkpoints.compareAndSet(NS, {
          key: id,
          data,
          expectedVersion: held.version,
          fencingToken: held.token,
        });
        if (terminal) await leases.release(NS, id, ownerId, held.token);
      } catch (error) {
        this.#failed(held, id, error);
      }
      if (terminal) this.#drop(id, held);
    });
  }

  /** Removes the record of a session that never started (spawn failed) and frees its lease. */
  discard(id: string): Promise<void> {
    const held = this.#held.get(id);
    if (!held) return Promise.resolve();
    held.live = false;
    return this.#enqueue(held, async () => {
      const { checkpoints, leases, ownerId } = this.#config;
      try {
        if (!held.lost) await checkpoints.delete(NS, id, held.version);
        await leases.release(NS, id, ownerId, held.token);
      } catch (error) {
        this.#warn('durable record of a failed start not removed', id, error);
      }
      this.#drop(id, held);
    });
  }

  /** Waits for every queued write. */
  async flush(): Promise<void> {
    await Promise.all([...this.#held.values()].map((held) => held.queue));
  }

  /** Stops the heartbeat after the queued writes are done. Leases still held lapse by TTL. */
  async dispose(): Promise<void> {
    await this.flush();
    this.#stopHeartbeat();
  }

  #serialize(source: RecordSource): string {
    const data = serializeRecord(buildRecord(source, this.#config.ownerId, this.#tenant));
    const size = Buffer.byteLength(data);
    if (size > RECOVERY_RECORD_BYTES) {
      throw new ProcmuxError(
        'ERR_RECOVERY_LIMIT',
        `the durable record of session ${source.metadata.id} would be ${size} bytes; at most ${RECOVERY_RECORD_BYTES} (shorten command and args)`,
      );
    }
    return data;
  }

  #hold(id: string, token: number, version: number): void {
    this.#held.set(id, { token, version, queue: Promise.resolve(), lost: false, live: true });
    this.#startHeartbeat();
  }

  #enqueue(held: Held, work: () => Promise<void>): Promise<void> {
    held.queue = held.queue.then(work);
    return held.queue;
  }

  #drop(id: string, held: Held): void {
    if (this.#held.get(id) === held) this.#held.delete(id);
    if (![...this.#held.values()].some((h) => h.live && !h.lost)) this.#stopHeartbeat();
  }

  #failed(held: Held, id: string, error: unknown): void {
    if (isProcmuxError(error, 'ERR_RECOVERY_FENCE')) {
      held.lost = true;
      held.live = false;
      this.#warn('another replica took over this durable record; no further writes for it', id, error);
    } else {
      this.#warn('durable record write failed; it will be retried with the next transition', id, error);
    }
  }

  #startHeartbeat(): void {
    if (this.#heartbeat) return;
    const every = Math.max(1, Math.floor(this.#config.limits.leaseTtlMs / 3));
    this.#heartbeat = setInterval(() => this.#renewAll(), every);
    this.#heartbeat.unref();
  }

  #stopHeartbeat(): void {
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }

  #renewAll(): void {
    const { leases, ownerId, limits } = this.#config;
    for (const [id, held] of this.#held) {
      if (!held.live || held.lost) continue;
      void this.#enqueue(held, async () => {
        if (!held.live || held.lost) return;
        try {
          await leases.renew(NS, id, ownerId, held.token, limits.leaseTtlMs);
        } catch (error) {
          this.#failed(held, id, error);
          if (held.lost) this.#drop(id, held);
        }
      });
    }
  }

  #warn(message: string, id: string, error: unknown): void {
    this.#logger.warn(`procmux: ${message}`, {
      sessionId: id,
      code: isProcmuxError(error) ? error.code : undefined,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

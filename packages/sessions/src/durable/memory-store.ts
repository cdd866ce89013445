import {
  type CheckpointEntry,
  type CheckpointStore,
  type CheckpointWrite,
  checkCheckpointDelete,
  checkCheckpointWrite,
  checkCompareAndSet,
  checkLeaseCall,
  checkStoreKey,
  checkStoreNamespace,
  fenceConflict,
  type Lease,
  type LeaseStore,
} from '@procmux/core-types';

/** The checkpoint and lease stores of one in-memory "database". */
export interface MemoryRecoveryStores {
  checkpoints: CheckpointStore;
  leases: LeaseStore;
}

/**
 * Checkpoint and lease stores that live in this process: for tests, and for hosts that want
 * several registries in one process to coordinate (they share the returned pair). Nothing
 * survives the process; use @procmux/store-sqlite or @procmux/store-postgres for that.
 * `now` is the store's clock (lease expiry), injectable for tests.
 */
export function createMemoryRecoveryStores(options: { now?: () => number } = {}): MemoryRecoveryStores {
  const now = options.now ?? Date.now;
  return { checkpoints: new MemoryCheckpointStore(now), leases: new MemoryLeaseStore(now) };
}

const slot = (namespace: string, key: string) => `${namespace}\u0000${key}`;

class MemoryCheckpointStore implements CheckpointStore {
  readonly #entries = new Map<string, CheckpointEntry & { namespace: string }>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  async get(namespace: string, key: string): Promise<CheckpointEntry | undefined> {
    checkStoreKey(namespace, key);
    const entry = this.#entries.get(slot(namespace, key));
    return entry ? copy(entry) : undefined;
  }

  async list(namespace: string): Promise<CheckpointEntry[]> {
    checkStoreNamespace(namespace);
    return [...this.#entries.values()].filter((entry) => entry.namespace === namespace).map(copy);
  }

  async compareAndSet(namespace: string, write: CheckpointWrite): Promise<number> {
    checkCheckpointWrite(namespace, write);
    const current = this.#entries.get(slot(namespace, write.key));
    const version = checkCompareAndSet(write, current);
    this.#entries.set(slot(namespace, write.key), {
      namespace,
      key: write.key,
      data: write.data,
      version,
      fencingToken: write.fencingToken,
      updatedAt: this.#now(),
    });
    return version;
  }

  async delete(namespace: string, key: string, expectedVersion: number): Promise<boolean> {
    checkCheckpointDelete(namespace, key, expectedVersion);
    const current = this.#entries.get(slot(namespace, key));
    if (!current || current.version !== expectedVersion) return false;
    this.#entries.delete(slot(namespace, key));
    return true;
  }
}

function copy(entry: CheckpointEntry): CheckpointEntry {
  return {
    key: entry.key,
    data: entry.data,
    version: entry.version,
    fencingToken: entry.fencingToken,
    updatedAt: entry.updatedAt,
  };
}

class MemoryLeaseStore implements LeaseStore {
  readonly #leases = new Map<string, Lease>();
  readonly #now: () => number;
  #lastToken = 0;

  constructor(now: () => number) {
    this.#now = now;
  }

  async acquire(namespace: string, key: string, holder: string, ttlMs: number): Promise<Lease | undefined> {
    checkLeaseCall(namespace, key, holder, { ttlMs });
    const current = this.#leases.get(slot(namespace, key));
    const now = this.#now();
    if (current && current.holder !== holder && current.expiresAt > now) return undefined;
    this.#lastToken += 1;
    const lease = { key, holder, token: this.#lastToken, expiresAt: now + ttlMs };
    this.#leases.set(slot(namespace, key), lease);
    return { ...lease };
  }

  async renew(namespace: string, key: string, holder: string, token: number, ttlMs: number): Promise<Lease> {
    checkLeaseCall(namespace, key, holder, { token, ttlMs });
    const current = this.#leases.get(slot(namespace, key));
    if (!current || current.holder !== holder || current.token !== token) throw fenceConflict(key, 'lease');
    current.expiresAt = this.#now() + ttlMs;
    return { ...current };
  }

  async release(namespace: string, key: string, holder: string, token: number): Promise<boolean> {
    checkLeaseCall(namespace, key, holder, { token });
    const current = this.#leases.get(slot(namespace, key));
    if (!current || current.holder !== holder || current.token !== token) return false;
    this.#leases.delete(slot(namespace, key));
    return true;
  }
}

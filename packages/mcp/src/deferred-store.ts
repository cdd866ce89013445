// The record store of a server whose state dir does not exist yet: records live in memory
// (nothing of a one-shot command has to outlive the server) until the state dir is opened for
// a session that must; from then on new records go to the store in the state dir.
import type { CheckpointStore, LeaseStore } from '@procmux/core-types';
import { createMemoryRecoveryStores } from '@procmux/sessions';

/** The store in the state dir, and the owner id its leases are taken under (known once its lock is). */
export interface OpenedStore {
  readonly checkpoints: CheckpointStore;
  readonly leases: LeaseStore;
  readonly ownerId: string;
}

/**
 * Checkpoints and leases that live in memory until `opened()` returns the state dir's store.
 * A record begun in memory stays there to its end (its lease token is memory's); a record begun
 * after the store opened is written there, under the owner id the server lock gave (a second
 * server on the workspace writes under an id of its own, whatever id the registry was made with).
 */
export function deferredStore(opened: () => OpenedStore | undefined): {
  checkpoints: CheckpointStore;
  leases: LeaseStore;
} {
  const memory = createMemoryRecoveryStores();
  const inMemory = new Set<string>();
  const slot = (namespace: string, key: string) => `${namespace}\u0000${key}`;
  const disk = (namespace: string, key: string): OpenedStore | undefined => {
    const store = opened();
    return store === undefined || inMemory.has(slot(namespace, key)) ? undefined : store;
  };
  const checkpoints: CheckpointStore = {
    get: (namespace, key) => (disk(namespace, key) ?? memory).checkpoints.get(namespace, key),
    async list(namespace) {
      const store = opened();
      const own = await memory.checkpoints.list(namespace);
      return store === undefined ? own : [...own, ...(await store.checkpoints.list(namespace))];
    },
    compareAndSet: (namespace, write) =>
      (disk(namespace, write.key) ?? memory).checkpoints.compareAndSet(namespace, write),
    delete: (namespace, key, version) =>
      (disk(namespace, key) ?? memory).checkpoints.delete(namespace, key, version),
  };
  const leases: LeaseStore = {
    acquire(namespace, key, holder, ttlMs) {
      const store = disk(namespace, key);
      if (store) return store.leases.acquire(namespace, key, store.ownerId, ttlMs);
      inMemory.add(slot(namespace, key));
      return memory.leases.acquire(namespace, key, holder, ttlMs);
    },
    renew(namespace, key, holder, token, ttlMs) {
      const store = disk(namespace, key);
      return store
        ? store.leases.renew(namespace, key, store.ownerId, token, ttlMs)
        : memory.leases.renew(namespace, key, holder, token, ttlMs);
    },
    release(namespace, key, holder, token) {
      const store = disk(namespace, key);
      return store
        ? store.leases.release(namespace, key, store.ownerId, token)
        : memory.leases.release(namespace, key, holder, token);
    },
  };
  return { checkpoints, leases };
}

// The store behind `--store`: SQLite (one host) or PostgreSQL (hosts sharing sessions). The
// PostgreSQL package (and pg) load only when asked for, as ssh2 does for --ssh.
import { type CheckpointStore, isProcmuxError, type LeaseStore, ProcmuxError } from '@procmux/core-types';
import { openSqliteRecoveryStore } from '@procmux/store-sqlite';
import type { StoreRequest } from './store-args.js';

export interface RecordStore {
  readonly checkpoints: CheckpointStore;
  readonly leases: LeaseStore;
  /** True for a store other hosts may share (their leases and records are visible here). */
  readonly shared: boolean;
  close(): Promise<void>;
}

/** Opens the store; a PostgreSQL one is connected (and its schema made) before this resolves. */
export async function openRecordStore(request: StoreRequest): Promise<RecordStore> {
  if (request.kind === 'sqlite') {
    const store = openSqliteRecoveryStore({ path: request.path });
    return {
      checkpoints: store.checkpoints,
      leases: store.leases,
      shared: false,
      close: async () => store.close(),
    };
  }
  const { openPostgresRecoveryStore } = await import('@procmux/store-postgres');
  const store = openPostgresRecoveryStore({ url: request.url });
  try {
    await store.ready();
  } catch (error) {
    await store.close();
    if (isProcmuxError(error)) throw error;
    // pg's words name the host and the refusal, never the password of the URL.
    throw new ProcmuxError(
      'ERR_RECOVERY_UNSUPPORTED',
      `--store: the PostgreSQL database could not be used: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return { checkpoints: store.checkpoints, leases: store.leases, shared: true, close: () => store.close() };
}

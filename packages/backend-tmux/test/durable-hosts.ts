// In-process hosts for recovery tests: a durable registry on SQLite + the tmux backend under a
// state directory, as fixtures/durable-registry.mjs builds for the child hosts.
import { join } from 'node:path';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import { openSqliteRecoveryStore, type SqliteRecoveryStore } from '@procmux/store-sqlite';
import { createTmuxBackend, type TmuxBackend, type TmuxBinary } from '../src/index.js';

export interface DurableHost {
  sessions: ProcessSessions;
  store: SqliteRecoveryStore;
  tmux: TmuxBackend;
}

let open: DurableHost[] = [];

export function newHost(dir: string, ownerId = 'host-1', binary?: TmuxBinary): DurableHost {
  const store = openSqliteRecoveryStore({ path: join(dir, 'state.sqlite') });
  const tmux = createTmuxBackend({ dir: join(dir, 'tmux'), ...(binary ? { tmux: binary } : {}) });
  const sessions = createProcessSessions({
    cwd: process.cwd(),
    ptyBackend: tmux,
    recoveryBackend: tmux,
    ownerId,
    checkpoints: store.checkpoints,
    leases: store.leases,
  });
  const host = { sessions, store, tmux };
  open.push(host);
  return host;
}

/** Disposes every host newHost() made (registry, backend, store), for afterEach. */
export async function disposeHosts(): Promise<void> {
  for (const host of open) {
    await host.sessions.dispose();
    await host.tmux.dispose();
    host.store.close();
  }
  open = [];
}

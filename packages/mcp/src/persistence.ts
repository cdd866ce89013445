// What `procmux mcp` remembers across restarts: an embedded SQLite store of session records
// and, where tmux is available, a private tmux server holding `persist: true` sessions.
import { join } from 'node:path';
import { createTmuxBackend, type TmuxBackend } from '@procmux/backend-tmux';
import { isProcmuxError, RECOVERY_NAMESPACE } from '@procmux/core-types';
import type { ProcessSessions, ProcessSessionsOptions, RecoveryReport } from '@procmux/sessions';
import { openSqliteRecoveryStore, type SqliteRecoveryStore } from '@procmux/store-sqlite';
import { acquireServerLock, type ServerLock } from './state-dir.js';

export interface Persistence {
  readonly stateDir: string;
  readonly lock: ServerLock;
  /** Durability and backends for createProcessSessions. */
  readonly sessionsOptions: Pick<
    ProcessSessionsOptions,
    'checkpoints' | 'leases' | 'ownerId' | 'recoveryBackend' | 'persistentPtyBackend'
  >;
  /** Why `persist: true` cannot work here (tmux missing or too old), if it cannot. */
  readonly persistUnavailable: string | undefined;
  readonly tmux: TmuxBackend | undefined;
  /** Recovers the persisted sessions into `sessions`; one log line says what came back. */
  recover(sessions: ProcessSessions, log: (line: string) => void): Promise<RecoveryReport>;
  /** Lets go of everything without ending a persisted session. */
  close(): Promise<void>;
}

export function openPersistence(stateDir: string, workspace: string): Persistence {
  const lock = acquireServerLock(stateDir, workspace);
  let store: SqliteRecoveryStore;
  try {
    store = openSqliteRecoveryStore({ path: join(stateDir, 'state.sqlite') });
  } catch (error) {
    lock.release();
    throw error;
  }
  let tmux: TmuxBackend | undefined;
  let persistUnavailable: string | undefined;
  try {
    tmux = createTmuxBackend({ dir: join(stateDir, 'tmux') });
  } catch (error) {
    if (!isProcmuxError(error)) throw error;
    persistUnavailable = error.message;
  }
  return {
    stateDir,
    lock,
    tmux,
    persistUnavailable,
    sessionsOptions: {
      checkpoints: store.checkpoints,
      leases: store.leases,
      ownerId: lock.ownerId,
      ...(tmux ? { recoveryBackend: tmux, persistentPtyBackend: tmux } : {}),
    },
    async recover(sessions, log) {
      const report = await sessions.recover();
      const back = report.outcomes.filter((o) => o.outcome === 'reattached').map((o) => o.id);
      const refused = report.outcomes.filter((o) => o.code === 'ERR_RECOVERY_OWNERSHIP').map((o) => o.id);
      const lost = report.outcomes.filter((o) => o.outcome === 'unknown' && o.written).map((o) => o.id);
      log(
        `procmux mcp: state in ${stateDir}; recovered ${back.length} persisted session(s)${back.length ? ` (${back.join(', ')})` : ''}` +
          (lost.length ? `; ${lost.length} unknown (the host that ran them is gone)` : '') +
          (refused.length
            ? `; ERR_RECOVERY_OWNERSHIP: ${refused.length} held by the live server pid ${lock.holder ?? '?'} (${refused.join(', ')})`
            : ''),
      );
      return report;
    },
    async close() {
      await tmux?.dispose();
      store.close();
      lock.release();
    },
  };
}

/**
 * `procmux sessions prune`: ends every persisted session of the workspace (process tree,
 * tmux session and server), deletes their files and every record. Refused while a server runs.
 */
export async function prunePersisted(stateDir: string, workspace: string): Promise<string> {
  const p = openPersistence(stateDir, workspace);
  try {
    if (!p.lock.primary) {
      return `a procmux mcp server (pid ${p.lock.holder}) is using ${stateDir}; stop it first, or kill its sessions with the process tool`;
    }
    const sessions = (await p.tmux?.listSessions()) ?? [];
    await p.tmux?.killServer();
    const checkpoints = p.sessionsOptions.checkpoints!;
    const records = await checkpoints.list(RECOVERY_NAMESPACE);
    let removed = 0;
    for (const entry of records) {
      if (await checkpoints.delete(RECOVERY_NAMESPACE, entry.key, entry.version)) removed += 1;
    }
    return `ended ${sessions.length} persisted session(s) and removed ${removed} record(s) in ${stateDir}`;
  } finally {
    await p.close();
  }
}

// What `procmux mcp` remembers across restarts: an embedded SQLite store of session records
// and, where tmux is available, a private tmux server holding `persist: true` sessions.
import { existsSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createTmuxBackend, type TmuxBackend } from '@procmux/backend-tmux';
import {
  isProcmuxError,
  isTerminalState,
  type ProcessRecoveryBackend,
  RECOVERY_NAMESPACE,
  type SessionState,
} from '@procmux/core-types';
import type {
  ProcessPtyBackend,
  ProcessSessions,
  ProcessSessionsOptions,
  RecoveryReport,
} from '@procmux/sessions';
import { openRecordStore, type RecordStore } from './record-store.js';
import { acquireServerLock, markWorkspace, type ServerLock, workspaceHash } from './state-dir.js';
import type { StoreRequest } from './store-args.js';

export interface Persistence {
  readonly stateDir: string;
  readonly lock: ServerLock;
  /** Durability and backends for createProcessSessions. */
  readonly sessionsOptions: Pick<
    ProcessSessionsOptions,
    'checkpoints' | 'leases' | 'ownerId' | 'recoveryBackend' | 'persistentPtyBackend' | 'recoveryLimits'
  >;
  /** Why `persist: true` cannot work here (tmux missing or too old), if it cannot. */
  readonly persistUnavailable: string | undefined;
  /** The local tmux backend (undefined when sessions persist elsewhere, or tmux is missing). */
  readonly tmux: TmuxBackend | undefined;
  /** Whether other hosts may share the store (and adopt this host's sessions). */
  readonly shared: boolean;
  /** Recovers the persisted sessions into `sessions`; one log line says what came back. */
  recover(sessions: ProcessSessions, log: (line: string) => void): Promise<RecoveryReport>;
  /** Lets go of everything without ending a persisted session. */
  close(): Promise<void>;
}

/** Where records live and how long leases last (`--store`, `--lease-ttl`). */
export interface StoreChoice {
  /** Default: the SQLite file `state.sqlite` in the state directory. */
  store?: StoreRequest | undefined;
  /** Default: the sessions package's own (30 s). */
  leaseTtlMs?: number | undefined;
  /**
   * The persistent backend when sessions run elsewhere (tmux on the --ssh host); by default
   * a private tmux server under the state directory.
   */
  persistentBackend?: (() => Promise<PersistentBackend>) | undefined;
}

/** What holds persisted sessions: a local or a remote tmux server. */
export type PersistentBackend = ProcessPtyBackend & ProcessRecoveryBackend & { dispose(): Promise<void> };

/**
 * Opens the state dir (creating it when missing). A dir this server created is removed again
 * by close() when nothing in it has to outlive the server: no persisted session still runs.
 * A server that dies without close() leaves it, with the records that say what was lost.
 */
export async function openPersistence(
  stateDir: string,
  workspace: string,
  choice: StoreChoice = {},
): Promise<Persistence> {
  const created = !existsSync(stateDir);
  const lock = acquireServerLock(stateDir, workspace);
  try {
    markWorkspace(stateDir, workspace);
  } catch {
    // Only `prune --gone` reads it; a dir without it is left alone there.
  }
  let store: RecordStore;
  try {
    store = await openRecordStore(choice.store ?? { kind: 'sqlite', path: join(stateDir, 'state.sqlite') });
  } catch (error) {
    lock.release();
    throw error;
  }
  // In a store several hosts share, each host writes under an id of its own: this machine and
  // this state directory (and the pid when a second server shares the directory).
  const ownerId = store.shared
    ? `${hostname()}:${workspaceHash(stateDir)}${lock.primary ? '' : `-${process.pid}`}`
    : lock.ownerId;
  let tmux: TmuxBackend | undefined;
  let backend: PersistentBackend | undefined;
  let persistUnavailable: string | undefined;
  try {
    if (choice.persistentBackend) backend = await choice.persistentBackend();
    else backend = tmux = createTmuxBackend({ dir: join(stateDir, 'tmux') });
  } catch (error) {
    if (!isProcmuxError(error)) throw error;
    persistUnavailable = error.message;
  }
  return {
    stateDir,
    lock,
    tmux,
    shared: store.shared,
    persistUnavailable,
    sessionsOptions: {
      checkpoints: store.checkpoints,
      leases: store.leases,
      ownerId,
      ...(choice.leaseTtlMs !== undefined ? { recoveryLimits: { leaseTtlMs: choice.leaseTtlMs } } : {}),
      ...(backend ? { recoveryBackend: backend, persistentPtyBackend: backend } : {}),
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
      const outlives = !created || !lock.primary || (await anythingOutlives(store, tmux));
      await backend?.dispose();
      await store.close();
      lock.release();
      if (!outlives) rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/**
 * Whether the state dir holds something the next server needs: a persisted session still in
 * tmux, or a record not yet ended (a session whose end this server did not see). Unsure
 * (a store or tmux that fails to answer) counts as yes.
 */
async function anythingOutlives(store: RecordStore, tmux: TmuxBackend | undefined): Promise<boolean> {
  try {
    if (((await tmux?.listSessions()) ?? []).length > 0) return true;
    const records = await store.checkpoints.list(RECOVERY_NAMESPACE);
    return records.some((entry) => {
      const state = (JSON.parse(entry.data) as { state?: unknown }).state;
      return typeof state !== 'string' || !isTerminalState(state as SessionState);
    });
  } catch {
    return true;
  }
}

/**
 * `procmux sessions prune`: ends every persisted session of the workspace (process tree,
 * tmux session and server), deletes their files and every record. Refused while a server runs.
 */
export async function prunePersisted(stateDir: string, workspace: string): Promise<string> {
  const p = await openPersistence(stateDir, workspace);
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

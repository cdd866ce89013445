// What `procmux mcp` remembers across restarts: an embedded SQLite store of session records
// and, where tmux is available, a private tmux server holding `persist: true` sessions.
import { existsSync, rmdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createTmuxBackend, locateTmux, type TmuxBackend, type TmuxBinary } from '@procmux/backend-tmux';
import {
  isProcmuxError,
  isTerminalState,
  type Logger,
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
import { deferredStore } from './deferred-store.js';
import { openRecordStore, type RecordStore } from './record-store.js';
import { acquireServerLock, markWorkspace, type ServerLock, workspaceHash } from './state-dir.js';
import type { StoreRequest } from './store-args.js';

export interface Persistence {
  readonly stateDir: string;
  /** This server's hold on the state dir; undefined while the dir is not open. */
  readonly lock: ServerLock | undefined;
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
  /** Opens (makes) the state dir: call before starting a session that must outlive the server. */
  ensureDir(): Promise<void>;
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
  /** Where the private tmux server's panes report what they could not clean up (a cgroup left). */
  logger?: Logger | undefined;
}

/** What holds persisted sessions: a local or a remote tmux server. */
export type PersistentBackend = ProcessPtyBackend & ProcessRecoveryBackend & { dispose(): Promise<void> };

/** What the state dir holds open while it is in use. */
interface OpenDir {
  lock: ServerLock;
  store: RecordStore;
  ownerId: string;
  tmux: TmuxBackend | undefined;
}

/**
 * Opens the state dir for the records of `workspace`. A dir that exists (earlier persisted
 * sessions to recover) is opened now; a missing one only when a session must outlive this
 * server (`ensureDir()`, called before each `persist: true` start): until then records live in
 * memory, so a server that persists nothing, even a SIGKILLed one, leaves no dir. A PostgreSQL
 * `--store` and `sandboxed` servers (the dir must exist to be hidden from sessions) open it now.
 * close() removes what procmux made in the dir when nothing in it has to outlive the server.
 */
export async function openPersistence(
  stateDir: string,
  workspace: string,
  choice: StoreChoice = {},
  { sandboxed = false }: { sandboxed?: boolean } = {},
): Promise<Persistence> {
  const defaultStore: StoreRequest = { kind: 'sqlite', path: join(stateDir, 'state.sqlite') };
  const storeRequest = choice.store ?? defaultStore;
  const deferred = !existsSync(stateDir) && storeRequest.kind === 'sqlite' && !sandboxed;
  let backend: PersistentBackend | undefined;
  let persistUnavailable: string | undefined;
  let binary: TmuxBinary | undefined;
  try {
    if (choice.persistentBackend) backend = await choice.persistentBackend();
    else binary = locateTmux();
  } catch (error) {
    if (!isProcmuxError(error)) throw error;
    persistUnavailable = error.message;
  }
  let dir: OpenDir | undefined;
  let opening: Promise<OpenDir> | undefined;
  const openDir = () => {
    opening ??= (async () => {
      const lock = acquireServerLock(stateDir, workspace);
      try {
        markWorkspace(stateDir, workspace);
      } catch {
        // Only `prune --gone` reads it; a dir without it is left alone there.
      }
      let store: RecordStore;
      try {
        store = await openRecordStore(storeRequest);
      } catch (error) {
        lock.release();
        throw error;
      }
      // In a store several hosts share, each host writes under an id of its own: this machine and
      // this state directory (and the pid when a second server shares the directory).
      const ownerId = store.shared
        ? `${hostname()}:${workspaceHash(stateDir)}${lock.primary ? '' : `-${process.pid}`}`
        : lock.ownerId;
      const tmux =
        binary && !choice.persistentBackend
          ? createTmuxBackend({
              dir: join(stateDir, 'tmux'),
              tmux: binary,
              ...(choice.logger ? { logger: choice.logger } : {}),
            })
          : undefined;
      dir = { lock, store, ownerId, tmux };
      return dir;
    })();
    opening.catch(() => {
      opening = undefined;
    });
    return opening;
  };
  if (!deferred) await openDir();
  const local = binary !== undefined && !choice.persistentBackend;
  // A persisted session starts on the private tmux server, which lives in the state dir.
  if (local)
    backend = lazyTmux(
      async () => (await openDir()).tmux!,
      () => dir?.tmux,
    );
  const stores = dir
    ? { checkpoints: dir.store.checkpoints, leases: dir.store.leases, ownerId: dir.ownerId }
    : {
        ...deferredStore(() =>
          dir
            ? { checkpoints: dir.store.checkpoints, leases: dir.store.leases, ownerId: dir.ownerId }
            : undefined,
        ),
        // The id the lock would give a first server; a record written to the dir later is
        // leased under the id the lock does give (see deferredStore).
        ownerId: `mcp-${workspaceHash(workspace)}`,
      };
  return {
    stateDir,
    get lock() {
      return dir?.lock;
    },
    get tmux() {
      return dir?.tmux;
    },
    get shared() {
      return dir?.store.shared ?? false;
    },
    persistUnavailable,
    sessionsOptions: {
      ...stores,
      ...(choice.leaseTtlMs !== undefined ? { recoveryLimits: { leaseTtlMs: choice.leaseTtlMs } } : {}),
      ...(backend ? { recoveryBackend: backend, persistentPtyBackend: backend } : {}),
    },
    async ensureDir() {
      await openDir();
    },
    async recover(sessions, log) {
      const report = await sessions.recover();
      const back = report.outcomes.filter((o) => o.outcome === 'reattached').map((o) => o.id);
      const refused = report.outcomes.filter((o) => o.code === 'ERR_RECOVERY_OWNERSHIP').map((o) => o.id);
      const lost = report.outcomes.filter((o) => o.outcome === 'unknown' && o.written).map((o) => o.id);
      log(
        `procmux mcp: state in ${stateDir}${dir ? '' : ' (made when a session must outlive this server)'}; recovered ${back.length} persisted session(s)${back.length ? ` (${back.join(', ')})` : ''}` +
          (lost.length ? `; ${lost.length} unknown (the host that ran them is gone)` : '') +
          (refused.length
            ? `; ERR_RECOVERY_OWNERSHIP: ${refused.length} held by the live server pid ${dir?.lock.holder ?? '?'} (${refused.join(', ')})`
            : ''),
      );
      return report;
    },
    async close() {
      await opening?.catch(() => {});
      if (!dir) {
        await backend?.dispose();
        return;
      }
      const { lock, store, tmux } = dir;
      const outlives = !lock.primary || (await anythingOutlives(store, tmux));
      await backend?.dispose();
      await store.close();
      lock.release();
      if (!outlives) clearStateDir(stateDir, choice.store === undefined);
    },
  };
}

/** A persistent backend that makes the tmux server (and the state dir) at its first use. */
function lazyTmux(open: () => Promise<TmuxBackend>, made: () => TmuxBackend | undefined): PersistentBackend {
  return {
    persistent: true,
    // The local tmux backend's own: it runs a sandboxed start's launcher as the pane's program.
    capabilities: { resize: true, sandbox: true },
    startPty: async (request) => (await open()).startPty(request),
    attach: async (request) => (await open()).attach(request),
    dispose: async () => made()?.dispose(),
  };
}

// What procmux puts in a state dir; a dir given with --state-dir may hold more, which stays.
const OWN_ENTRIES = ['server.lock', 'workspace', 'tmux'];
const STORE_FILES = ['state.sqlite', 'state.sqlite-wal', 'state.sqlite-shm', 'state.sqlite-journal'];

/** Removes procmux's files from the state dir, then the dir itself if nothing else is in it. */
function clearStateDir(stateDir: string, ownStore: boolean): void {
  for (const name of [...OWN_ENTRIES, ...(ownStore ? STORE_FILES : [])]) {
    rmSync(join(stateDir, name), { recursive: true, force: true });
  }
  try {
    rmdirSync(stateDir);
  } catch {
    // Not empty: someone else's files (a --state-dir shared with them) stay, and so does the dir.
  }
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
  if (!existsSync(stateDir)) return `no state in ${stateDir}: nothing to prune`;
  const p = await openPersistence(stateDir, workspace);
  let done: string;
  try {
    const lock = p.lock!;
    if (!lock.primary) {
      return `a procmux mcp server (pid ${lock.holder}) is using ${stateDir}; stop it first, or kill its sessions with the process tool`;
    }
    const sessions = (await p.tmux?.listSessions()) ?? [];
    await p.tmux?.killServer();
    const checkpoints = p.sessionsOptions.checkpoints!;
    const records = await checkpoints.list(RECOVERY_NAMESPACE);
    let removed = 0;
    for (const entry of records) {
      if (await checkpoints.delete(RECOVERY_NAMESPACE, entry.key, entry.version)) removed += 1;
    }
    done = `ended ${sessions.length} persisted session(s) and removed ${removed} record(s)`;
  } finally {
    // With nothing left to outlive anyone, this removes the dir too.
    await p.close();
  }
  return `${done} in ${stateDir}${existsSync(stateDir) ? '' : ' (state dir removed)'}`;
}

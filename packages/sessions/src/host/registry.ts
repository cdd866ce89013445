import {
  invalidOption,
  loggerOption,
  oneOf,
  type ProcessEvent,
  ProcmuxError,
  resolveLimit,
} from '@procmux/core-types';
import {
  ENDED_SESSIONS_LIMIT,
  FINISHED_TTL_MS_LIMIT,
  lookUp,
  ownedBy,
  type ResolvedProcessSessionLimits,
  resolveProcessSessionLimits,
} from '@procmux/registry';
import { type CgroupLayout, hostCgroupLayout, ProcessSupervisor } from '@procmux/supervisor';
import { checkResourceLimits, probeLimits } from '../backends/containment.js';
import { choosePersistentPtyBackend, choosePtyBackend } from '../backends/pty-backend.js';
import { DurableJournal } from '../durable/journal.js';
import { resolveDurability } from '../durable/options.js';
import { recoverRecords, recoveryState } from '../durable/recover.js';
import type { RecoveryReport } from '../durable/report.js';
import type { ProcessSession } from '../process-session.js';
import type { LiveSession } from '../session/live-session.js';
import type { ProcessSessionsOptions, ProcessStartRequest } from '../types.js';
import { resolveSessionCwd } from './cwd.js';
import { reattachSession } from './reattach-session.js';
import type { RegistryState } from './registry-state.js';
import { assertOpen, startSession } from './start-session.js';
import { sweepSessions } from './sweep.js';

export { ENDED_SESSIONS_LIMIT };

/** One registry per workspace: what a host integrates. */
export interface ProcessSessions {
  readonly cwd: string;
  readonly limits: ResolvedProcessSessionLimits;
  start(request: ProcessStartRequest): Promise<ProcessSession>;
  /** The session, checked against `owner` when given (another owner's → ERR_PROCESS_OWNERSHIP). */
  get(id: string, owner?: string): ProcessSession;
  /** Every session this registry knows (live and ended), or only `owner`'s. */
  list(owner?: string): ProcessSession[];
  /** Kills (or, with releaseOnCancel, releases) `owner`'s running sessions. Resolves to how many. */
  cancelOwned(owner: string): Promise<number>;
  markUnknown(id: string): void;
  /** Marks every starting/running session `unknown` (host resume); returns how many. */
  reconcile(): number;
  /**
   * Durable registries: reconciles the store's records with this registry after a restart or
   * a replica's crash (see RecoveryOutcome). Without durability: ERR_RECOVERY_UNSUPPORTED.
   */
  recover(): Promise<RecoveryReport>;
  /**
   * Calls `listener` with every lifecycle event of every session (what `onEvent` gets: a session
   * started, ended, waits for input, a person took its keyboard), until the disposer runs. For a
   * host part that joins later, such as a view whose list follows the registry.
   */
  watch(listener: (event: ProcessEvent) => void): () => void;
  dispose(): Promise<void>;
}

/**
 * Builds a registry bound to one workspace. Nothing spawns and no timer starts here; expiry
 * sweeps run on registry and handle access.
 *
 * @example
 * const sessions = createProcessSessions({ cwd: process.cwd() });
 * const py = await sessions.start({ command: 'python3', args: ['-i'], pty: true });
 * await py.paste('print(6 * 7)'); await py.submit();
 * console.log((await py.poll({ timeoutMs: 2000 })).stdout);
 * await sessions.dispose();
 */
export function createProcessSessions(options: ProcessSessionsOptions): ProcessSessions {
  if (typeof options !== 'object' || options === null || typeof options.cwd !== 'string') {
    throw invalidOption('cwd', 'the workspace root path (createProcessSessions needs { cwd })', {
      value: (options as { cwd?: unknown } | null)?.cwd,
    });
  }
  // A remote sandbox resolves paths on its own file system.
  const resolveCwd = options.sandbox?.resolveCwd?.bind(options.sandbox) ?? resolveSessionCwd;
  const workspace = resolveCwd(options.cwd);
  const limits = resolveProcessSessionLimits(options.limits);
  const logger = loggerOption(options.logger ?? undefined, { warn: () => {} });
  const ptyBackend = choosePtyBackend(options.ptyBackend);
  const durability = resolveDurability(options);
  const journal = durability
    ? new DurableJournal(
        durability,
        options.ownership?.tenantId ?? options.identity?.tenantId ?? null,
        logger,
      )
    : undefined;
  const watchers = new Set<(event: ProcessEvent) => void>();
  const emit = (event: ProcessEvent) => {
    for (const sink of [options.onEvent, ...watchers]) {
      try {
        sink?.(event);
      } catch (error) {
        logger.warn('onEvent sink threw; event dropped for the sink only', {
          type: event.type,
          error: String(error),
        });
      }
    }
  };
  const sweep = () => sweepSessions(r);
  if (
    options.outputSpillDir !== undefined &&
    (typeof options.outputSpillDir !== 'string' || options.outputSpillDir === '')
  )
    throw invalidOption('outputSpillDir', 'a directory path', { value: options.outputSpillDir });
  const containment = oneOf(
    'containment',
    options.containment,
    ['auto', 'cgroup', 'pid-namespace', 'marker'],
    {
      default: 'auto',
    },
  );
  const resourceLimits = checkResourceLimits('resourceLimits', options.resourceLimits);
  let layout: { value: CgroupLayout | undefined } | undefined;
  const cgroupLayout = () => {
    layout ??= { value: hostCgroupLayout() };
    return layout.value;
  };
  probeLimits(containment, resourceLimits, {
    native: options.sandbox === undefined,
    layout: cgroupLayout,
  });
  const r: RegistryState = {
    options,
    workspace,
    resolveCwd,
    limits,
    logger,
    sandbox: options.sandbox,
    ptyBackend,
    persistentPtyBackend: choosePersistentPtyBackend(options.persistentPtyBackend),
    detached: new Set<string>(),
    sessions: new Map<string, LiveSession>(),
    issued: new Set<string>(),
    // The watchdog makes every native session die with this host, however the host ends.
    supervisor: new ProcessSupervisor({ logger, watchdog: true }),
    containment,
    resourceLimits,
    cgroupLayout,
    journal,
    context: {
      limits,
      policy: options.policy,
      emit,
      sweep,
      ...(options.outputSpillDir !== undefined ? { outputSpillDir: options.outputSpillDir } : {}),
      ...(journal ? { persist: (source) => journal.transition(source) } : {}),
    },
    finishedTtlMs: resolveLimit('finishedTtlMs', options.finishedTtlMs, FINISHED_TTL_MS_LIMIT),
    maxEndedSessions: resolveLimit('maxEndedSessions', options.maxEndedSessions, ENDED_SESSIONS_LIMIT),
    emit,
    sandboxLost: false,
    disposed: false,
    reserved: 0,
  };
  const { sessions, supervisor, context } = r;
  const recovery = recoveryState();

  return {
    cwd: workspace,
    limits,
    start: (request) => startSession(r, request),
    get(id, owner) {
      assertOpen(r);
      void sweep();
      return lookUp(r, id, owner);
    },
    list(owner) {
      void sweep();
      return ownedBy(r, owner);
    },
    async cancelOwned(owner) {
      await sweep();
      const owned = [...sessions.values()].filter((s) => s.live && s.owner === owner);
      await Promise.all(owned.map((s) => (s.releaseOnCancel ? s.release() : s.kill())));
      return owned.length;
    },
    markUnknown(id) {
      const session = sessions.get(id);
      if (!session) throw new ProcmuxError('ERR_PROCESS_NOT_FOUND', `no session with id ${String(id)}`);
      session.markUnknown();
    },
    reconcile() {
      let count = 0;
      for (const session of sessions.values()) {
        if (session.live) {
          session.markUnknown('reconciled after a host resume');
          count += 1;
        }
      }
      return count;
    },
    watch(listener) {
      watchers.add(listener);
      return () => {
        watchers.delete(listener);
      };
    },
    async recover() {
      assertOpen(r);
      if (!journal || !durability) {
        throw new ProcmuxError(
          'ERR_RECOVERY_UNSUPPORTED',
          'recover() needs durability: create the registry with checkpoints, leases and ownerId',
        );
      }
      // Runs may overlap (a standby polls while an earlier re-attach is under way): a record
      // one run is taking over is left to it by the others (recovery.inFlight).
      const report = await recoverRecords({
        config: durability,
        journal,
        sessions,
        context,
        state: recovery,
        reattach: (record, handle, wiring) =>
          reattachSession(record, handle, { supervisor, context, sessions, ...wiring }),
      });
      // Only a persistent backend re-attaches, so what came back outlives this host too.
      for (const o of report.outcomes) if (o.outcome === 'reattached') r.detached.add(o.id);
      return report;
    },
    async dispose() {
      if (r.disposed) return;
      r.disposed = true;
      const released = (s: LiveSession) => s.state === 'released' || (s.live && r.detached.has(s.id));
      await Promise.all(
        [...sessions.values()]
          .filter((s) => !released(s))
          .map(async (s) => {
            if (s.live) {
              await s.kill().catch(() => {});
            } else if (s.activeRun) {
              // Marked unknown but ours: its process may still run; leave none behind.
              s.activeRun.cancel('manual-cancel');
              await s.activeRun.wait().catch(() => {});
            }
          }),
      );
      // What the detached ones' polls delivered is recorded before the store is let go.
      await Promise.all([...sessions.values()].filter(released).map((s) => s.flushRecord().catch(() => {})));
      // Then they are no longer followed from here: their end belongs to whichever host adopts them.
      await Promise.all(
        [...sessions.values()]
          .filter((s) => s.live && r.detached.has(s.id))
          .map((s) => s.letGo().catch(() => {})),
      );
      // Released sessions keep their process by contract, so no supervisor-wide cancel here;
      // the watchdog exits without killing them.
      await supervisor.dispose();
      await journal?.dispose();
      await Promise.all([...sessions.values()].map((s) => s.closeOutput()));
      // A sandbox whose process ended here goes with this host (closeWithRun defers it a turn).
      await Promise.all(
        [...sessions.values()].filter((s) => !released(s)).map((s) => s.closeSandbox().catch(() => {})),
      );
    },
  };
}

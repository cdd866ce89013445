import {
  isProcmuxError,
  type Limit,
  type Logger,
  type ProcessEvent,
  ProcmuxError,
  resolveLimit,
} from '@procmux/core-types';
import { FINISHED_TTL_MS_LIMIT, OutputLog } from '@procmux/registry';
import { TerminalScreen } from '@procmux/screen';
import { ProcessSupervisor } from '@procmux/supervisor';
import type { SessionContext } from './context.js';
import { resolveSessionCwd } from './cwd.js';
import { DurableJournal } from './durable/journal.js';
import { resolveDurability } from './durable/options.js';
import { recoverRecords } from './durable/recover.js';
import type { RecoveryReport } from './durable/report.js';
import { resolveLifetime } from './lifetime.js';
import { type ResolvedProcessSessionLimits, resolveProcessSessionLimits } from './limits.js';
import { enforcePolicy } from './policy.js';
import { isNativePtyBackend, nativePtyBackend, type ProcessPtyBackend } from './pty-backend.js';
import { type ProcessSandboxBackend, sandboxRunning } from './sandbox.js';
import { screenGate } from './screen-gate.js';
import { ProcessSession } from './session.js';
import { newSessionId } from './session-id.js';
import { spawnSession } from './spawn-session.js';
import { planStart } from './start-plan.js';
import type { ProcessSessionsOptions, ProcessStartRequest } from './types.js';

/** How many ended sessions a registry keeps readable: 100 by default, at most 10,000. */
export const ENDED_SESSIONS_LIMIT: Limit = { default: 100, hard: 10_000 };

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
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      'createProcessSessions needs { cwd: <workspace root path> }',
    );
  }
  const resolveCwd = options.sandbox?.resolveCwd?.bind(options.sandbox) ?? resolveSessionCwd;
  const workspace = resolveCwd(options.cwd);
  const limits = resolveProcessSessionLimits(options.limits);
  const logger: Logger = options.logger ?? { warn: () => {} };
  const sandbox = options.sandbox;
  const ptyBackend: ProcessPtyBackend | undefined =
    options.ptyBackend === undefined ? nativePtyBackend() : (options.ptyBackend ?? undefined);
  checkPtyBackend(ptyBackend);
  const sessions = new Map<string, ProcessSession>();
  // Every id this registry gave out, pruned sessions' too: an old id never names a new session.
  const issued = new Set<string>();
  // The watchdog makes every native session die with this host, however the host ends.
  const supervisor = new ProcessSupervisor({ logger, watchdog: true });
  const durability = resolveDurability(options);
  const journal = durability
    ? new DurableJournal(
        durability,
        options.ownership?.tenantId ?? options.identity?.tenantId ?? null,
        logger,
      )
    : undefined;
  let recovering: Promise<unknown> = Promise.resolve();
  let sandboxLost = false;
  let disposed = false;
  // Starts between their limit check and their registration: counted as live, so that
  // concurrent starts cannot all pass the check before any of them registers.
  let reserved = 0;

  const emit = (event: ProcessEvent) => {
    try {
      options.onEvent?.(event);
    } catch (error) {
      logger.warn('onEvent sink threw; event dropped for the sink only', {
        type: event.type,
        error: String(error),
      });
    }
  };

  const finishedTtlMs = resolveLimit('finishedTtlMs', options.finishedTtlMs, FINISHED_TTL_MS_LIMIT);
  const maxEndedSessions = resolveLimit('maxEndedSessions', options.maxEndedSessions, ENDED_SESSIONS_LIMIT);

  const sweep = async () => {
    const now = Date.now();
    // Ended sessions stay readable for finishedTtlMs, then go (their output with them).
    for (const [id, session] of sessions) {
      // An unknown native record is kept: dispose() still has to reap the process behind it.
      const reapLater = session.state === 'unknown' && session.activeRun !== undefined;
      if (session.endedAt !== null && !reapLater && now - session.endedAt >= finishedTtlMs)
        sessions.delete(id);
    }
    pruneEnded();
    const expiring = [...sessions.values()].filter((s) => s.live && now >= s.expiresAt);
    await Promise.all(expiring.map((s) => s.expire()));
    if (sandbox && !sandboxLost && sessions.size > 0 && !(await sandboxRunning(sandbox))) loseSandbox();
  };

  // Past the cap, the sessions that ended first go first, so many short sessions cannot
  // pile up for the whole TTL (each keeps its output, up to maxOutputBytes).
  const pruneEnded = () => {
    const ended = [...sessions.values()].filter(
      (s) => s.endedAt !== null && !(s.state === 'unknown' && s.activeRun !== undefined),
    );
    if (ended.length <= maxEndedSessions) return;
    ended.sort((a, b) => a.endedAt! - b.endedAt!);
    for (const session of ended.slice(0, ended.length - maxEndedSessions)) sessions.delete(session.id);
  };

  const context: SessionContext = {
    limits,
    policy: options.policy,
    emit,
    sweep,
    ...(journal ? { persist: (source) => journal.transition(source) } : {}),
  };

  function loseSandbox(): void {
    sandboxLost = true;
    for (const session of sessions.values()) session.markUnknown('the sandbox stopped running');
  }

  function assertOpen(): void {
    if (disposed) throw new ProcmuxError('ERR_PROCESS_STATE', 'this process registry was disposed');
  }

  function ownerCheck(session: ProcessSession, owner: string | undefined): void {
    if (owner !== undefined && session.owner !== undefined && session.owner !== owner) {
      throw new ProcmuxError('ERR_PROCESS_OWNERSHIP', `session ${session.id} belongs to another owner`);
    }
  }

  /** Reserves a live-session slot synchronously (before any await), or throws ERR_PROCESS_LIMIT. */
  function reserveSlot(): () => void {
    const now = Date.now();
    // A session past its lifetime is expired by the sweep that follows: not counted.
    const live = [...sessions.values()].filter((s) => s.live && now < s.expiresAt).length + reserved;
    if (live >= limits.maxSessions) {
      throw new ProcmuxError(
        'ERR_PROCESS_LIMIT',
        `${live} sessions are running; this registry allows at most ${limits.maxSessions}`,
      );
    }
    reserved += 1;
    let held = true;
    return () => {
      if (held) reserved -= 1;
      held = false;
    };
  }

  async function start(request: ProcessStartRequest): Promise<ProcessSession> {
    assertOpen();
    const plan = planStart(request, {
      workspace,
      limits,
      ownership: options.ownership,
      identity: options.identity,
      resolveCwd,
    });
    resolveLifetime(request.lifetime, plan.pty, ptyBackend, sandbox !== undefined);
    const releaseSlot = reserveSlot();
    try {
      return await startReserved(request, plan, releaseSlot);
    } finally {
      releaseSlot();
    }
  }

  async function startReserved(
    request: ProcessStartRequest,
    plan: ReturnType<typeof planStart>,
    releaseSlot: () => void,
  ): Promise<ProcessSession> {
    await sweep();
    assertOpen();
    if (sandbox) {
      if (typeof sandbox.startProcess !== 'function') {
        throw new ProcmuxError(
          'ERR_PROCESS_UNSUPPORTED',
          'the sandbox cannot run long-lived processes (no startProcess)',
        );
      }
      if (sandboxLost || !(await sandboxRunning(sandbox))) {
        if (!sandboxLost) loseSandbox();
        throw new ProcmuxError(
          'ERR_PROCESS_UNSUPPORTED',
          'the sandbox is not running; sessions cannot start',
        );
      }
      if (request.pty && (!ptyBackend || isNativePtyBackend(ptyBackend))) {
        throw new ProcmuxError(
          'ERR_PROCESS_PTY_UNSUPPORTED',
          'PTY sessions are not available inside the sandbox',
        );
      }
    }
    if (request.pty && !ptyBackend) {
      throw new ProcmuxError(
        'ERR_PROCESS_PTY_UNSUPPORTED',
        'no PTY backend is configured; start with pty: false',
      );
    }
    await enforcePolicy(options.policy, {
      action: 'start',
      owner: plan.owner,
      command: plan.command,
      args: plan.args,
      cwd: plan.cwd,
      fingerprint: plan.fingerprint,
      pty: plan.pty,
    });

    const id = await newSessionId(
      (candidate) => issued.has(candidate) || sessions.has(candidate),
      journal ? (candidate) => journal.taken(candidate) : undefined,
    );
    const now = Date.now();
    const screen =
      plan.pty && request.screen !== false
        ? new TerminalScreen({ cols: plan.terminal.columns, rows: plan.terminal.rows })
        : undefined;
    const gate = screen ? screenGate(screen) : undefined;
    const session = new ProcessSession(
      {
        id,
        owner: plan.owner,
        command: plan.command,
        args: plan.args,
        cwd: plan.cwd,
        fingerprint: plan.fingerprint,
        pty: plan.pty,
        stdin: plan.stdin,
        startedAt: now,
        expiresAt: now + plan.lifetimeMs,
        releaseOnCancel: request.releaseOnCancel === true,
        log: new OutputLog({
          maxRetainedBytes: limits.maxOutputBytes,
          maxUndrainedBytes: limits.maxUndrainedBytes,
          maxChunkBytes: limits.maxOutputChunkBytes,
        }),
        screen,
        ...(gate ? { screenGate: gate } : {}),
        terminal: plan.pty ? { columns: plan.terminal.columns, rows: plan.terminal.rows } : undefined,
        backend:
          plan.pty && ptyBackend && !isNativePtyBackend(ptyBackend)
            ? 'pty-backend'
            : sandbox
              ? 'sandbox'
              : 'native',
      },
      context,
    );
    sessions.set(id, session);
    issued.add(id);
    // From here the session itself counts as live.
    releaseSlot();
    if (journal) {
      // Intent before spawn: a crash from here on leaves a record, never an untracked process.
      try {
        await journal.intent(session.recordSource());
      } catch (error) {
        sessions.delete(id);
        screen?.dispose();
        throw error;
      }
    }
    const hostBackend = plan.pty && ptyBackend !== undefined && !isNativePtyBackend(ptyBackend);
    try {
      const { run, adapter, metadata } = await spawnSession(
        { supervisor, sandbox, ptyBackend, limits },
        session,
        plan,
        request,
        gate?.screen,
      );
      session.attach(run, adapter, metadata);
      await session.persisted;
    } catch (error) {
      screen?.dispose();
      // A host backend that failed leaves an `unknown` record (the process may exist there).
      if (isProcmuxError(error, 'ERR_PROCESS_PTY_BACKEND') && hostBackend) {
        session.failUnknown('backend failed');
        await session.persisted;
      } else {
        sessions.delete(id);
        await journal?.discard(id);
      }
      throw error;
    }
    emit({
      type: 'process_started',
      sessionId: id,
      owner: session.owner,
      fingerprint: session.fingerprint,
      state: session.state,
      at: Date.now(),
      startedAt: session.startedAt,
      endedAt: null,
      pid: session.pid,
      stdioMode: session.stdioMode,
      exitCode: null,
      signal: null,
    });
    return session;
  }

  return {
    cwd: workspace,
    limits,
    start,
    get(id, owner) {
      assertOpen();
      void sweep();
      const session = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!session) throw new ProcmuxError('ERR_PROCESS_NOT_FOUND', `no session with id ${String(id)}`);
      ownerCheck(session, owner);
      return session;
    },
    list(owner) {
      void sweep();
      const all = [...sessions.values()];
      return owner === undefined ? all : all.filter((s) => s.owner === owner);
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
    async recover() {
      assertOpen();
      if (!journal || !durability) {
        throw new ProcmuxError(
          'ERR_RECOVERY_UNSUPPORTED',
          'recover() needs durability: create the registry with checkpoints, leases and ownerId',
        );
      }
      // One recovery at a time, so two calls never re-attach the same record twice.
      const run = recovering.then(() =>
        recoverRecords({ config: durability, journal, sessions, supervisor, context }),
      );
      recovering = run.catch(() => {});
      return run;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      const released = (s: ProcessSession) => s.state === 'released';
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
      // Released sessions keep their process by contract, so no supervisor-wide cancel here;
      // the watchdog exits without killing them.
      await supervisor.dispose();
      await journal?.dispose();
    },
  };
}

/**
 * A host PTY backend must be usable before any session trusts it: without startPty every PTY
 * start would fail after its record was made (an `unknown` record, not a clear error).
 */
function checkPtyBackend(backend: ProcessPtyBackend | undefined): void {
  if (backend === undefined || isNativePtyBackend(backend)) return;
  if (typeof backend !== 'object' || backend === null || typeof backend.startPty !== 'function') {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      'ptyBackend must be an object with a startPty(request) function (or null for no PTY sessions)',
    );
  }
  const resize = backend.capabilities?.resize;
  if (resize !== undefined && typeof resize !== 'boolean') {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `ptyBackend.capabilities.resize must be true or false (got ${String(resize)})`,
    );
  }
}

export type { ProcessSandboxBackend };

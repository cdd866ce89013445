// start(): the checks, the slot, the record, the spawn and the process_started event.
import { isProcmuxError, type Logger, ProcmuxError } from '@procmux/core-types';
import { idTaken, monoNow, newSessionId, reserveSlot } from '@procmux/registry';
import { TerminalScreen } from '@procmux/screen';
import { screenGate, sessionOutputLog } from '@procmux/transcript';
import { checkResourceLimits, containSession } from '../backends/containment.js';
import { resolveLifetime } from '../backends/lifetime.js';
import {
  backendFor,
  hostPtyBackend,
  type PtyBackendChoice,
  type PtyBackendHandle,
} from '../backends/pty-backend.js';
import { sandboxRunning } from '../backends/sandbox.js';
import type { ProcessSession } from '../process-session.js';
import { LiveSession } from '../session/live-session.js';
import { enforcePolicy } from '../session/policy.js';
import type { ProcessStartRequest } from '../types.js';
import type { RegistryState } from './registry-state.js';
import { spawnSession } from './spawn-session.js';
import { planStart, type StartPlan } from './start-plan.js';
import { loseSandbox, sweepSessions } from './sweep.js';

export function assertOpen(r: RegistryState): void {
  if (r.disposed) throw new ProcmuxError('ERR_PROCESS_STATE', 'this process registry was disposed');
}

export async function startSession(r: RegistryState, request: ProcessStartRequest): Promise<ProcessSession> {
  assertOpen(r);
  const plan = planStart(request, {
    workspace: r.workspace,
    limits: r.limits,
    ownership: r.options.ownership,
    identity: r.options.identity,
    resolveCwd: r.resolveCwd,
    sandboxPolicy: r.options.sandboxPolicy,
  });
  const lifetimeBackend = backendFor(request.lifetime, r.ptyBackend, r.persistentPtyBackend);
  resolveLifetime(
    request.lifetime,
    plan.pty,
    lifetimeBackend,
    // A sandbox's host that names a persistent backend has paired it with the sandbox (tmux on
    // the same remote machine); a local one would run the session on the wrong machine.
    r.sandbox !== undefined && lifetimeBackend !== r.persistentPtyBackend,
  );
  const releaseSlot = reserveSlot(r, r.limits.maxSessions, monoNow());
  try {
    return await startReserved(r, request, plan, releaseSlot);
  } finally {
    releaseSlot();
  }
}

/** Where a start may run at all: a running sandbox with startProcess, a PTY backend for pty. */
async function checkBackend(
  r: RegistryState,
  request: ProcessStartRequest,
  ptyBackend: PtyBackendChoice,
): Promise<void> {
  const sandbox = r.sandbox;
  if (sandbox) {
    if (typeof sandbox.startProcess !== 'function') {
      throw new ProcmuxError(
        'ERR_PROCESS_UNSUPPORTED',
        'the sandbox cannot run long-lived processes (no startProcess)',
      );
    }
    if (r.sandboxLost || !(await sandboxRunning(sandbox))) {
      if (!r.sandboxLost) loseSandbox(r);
      throw new ProcmuxError('ERR_PROCESS_UNSUPPORTED', 'the sandbox is not running; sessions cannot start');
    }
    if (request.pty && hostPtyBackend(ptyBackend) === undefined) {
      throw new ProcmuxError(
        'ERR_PROCESS_PTY_UNSUPPORTED',
        'PTY sessions are not available inside the sandbox',
      );
    }
  }
  if (request.pty && ptyBackend === null) {
    throw new ProcmuxError(
      'ERR_PROCESS_PTY_UNSUPPORTED',
      'no PTY backend is configured; start with pty: false',
    );
  }
}

async function startReserved(
  r: RegistryState,
  request: ProcessStartRequest,
  plan: StartPlan,
  releaseSlot: () => void,
): Promise<ProcessSession> {
  const ptyBackend = backendFor(request.lifetime, r.ptyBackend, r.persistentPtyBackend);
  await sweepSessions(r);
  assertOpen(r);
  await checkBackend(r, request, ptyBackend);
  await enforcePolicy(r.options.policy, {
    action: 'start',
    owner: plan.owner,
    command: plan.command,
    args: plan.args,
    shell: plan.shell,
    cwd: plan.cwd,
    fingerprint: plan.fingerprint,
    pty: plan.pty,
  });
  const journal = r.journal;
  const id = await newSessionId(
    (candidate) => idTaken(r, candidate),
    journal ? (candidate) => journal.taken(candidate) : undefined,
  );
  const hostBackend = plan.pty && hostPtyBackend(ptyBackend) !== undefined;
  // Before the session exists: a limit that cannot hold here fails the start, nothing runs.
  const contained = await containSession({
    mode: r.containment,
    id,
    limits: { ...r.resourceLimits, ...checkResourceLimits('resourceLimits', request.resourceLimits) },
    native: !hostBackend && r.sandbox === undefined,
    sandboxed: plan.sandbox !== undefined,
    layout: r.cgroupLayout,
  });
  const { session, screen, gate } = newSession(r, request, plan, id, hostBackend);
  r.sessions.set(id, session);
  r.issued.add(id);
  // From here the session itself counts as live.
  releaseSlot();
  if (journal) {
    // Intent before spawn: a crash from here on leaves a record, never an untracked process.
    try {
      await journal.intent(session.recordSource());
    } catch (error) {
      r.sessions.delete(id);
      void session.closeOutput();
      screen?.dispose();
      await contained.cgroup?.close().catch((left: unknown) => cgroupLeft(r.logger, id, left));
      throw error;
    }
  }
  try {
    const { run, adapter, metadata, shell } = await spawnSession(
      {
        supervisor: r.supervisor,
        sandbox: r.sandbox,
        ptyBackend,
        limits: r.limits,
        cgroup: contained.cgroup,
        pidNamespace: contained.pidNamespace,
        systemdScope: contained.systemdScope,
      },
      session,
      plan,
      request,
      gate?.screen,
    );
    // A host backend says what holds its process (a tmux pane in a pid namespace of its own).
    const held = (adapter?.handle as PtyBackendHandle | undefined)?.containment;
    session.attach(run, adapter, metadata, shell, held ? { ...contained, containment: held } : contained);
    if (request.lifetime === 'detached') r.detached.add(id);
    await session.persisted;
  } catch (error) {
    screen?.dispose();
    // The supervisor removes a cgroup it was given; one it never got is removed here.
    await contained.cgroup?.close().catch((left: unknown) => cgroupLeft(r.logger, id, left));
    // A host backend that failed leaves an `unknown` record (the process may exist there).
    if (isProcmuxError(error, 'ERR_PROCESS_PTY_BACKEND') && hostBackend) {
      session.failUnknown('backend failed');
      await session.persisted;
    } else {
      r.sessions.delete(id);
      void session.closeOutput();
      await journal?.discard(id);
    }
    throw error;
  }
  // Started, as far as the caller is told: whatever the run did meanwhile ends in its own event.
  r.emit(session.event('process_started', { endedAt: null, exitCode: null, signal: null }));
  return session;
}

function newSession(
  r: RegistryState,
  request: ProcessStartRequest,
  plan: StartPlan,
  id: string,
  hostBackend: boolean,
) {
  const now = Date.now();
  const screen =
    plan.pty && request.screen !== false
      ? new TerminalScreen({ cols: plan.terminal.columns, rows: plan.terminal.rows })
      : undefined;
  const gate = screen ? screenGate(screen) : undefined;
  const session = new LiveSession(
    {
      id,
      owner: plan.owner,
      command: plan.command,
      args: plan.args,
      shell: plan.shell,
      cwd: plan.cwd,
      fingerprint: plan.fingerprint,
      pty: plan.pty,
      stdin: plan.stdin,
      startedAt: now,
      expiresAt: now + plan.lifetimeMs,
      releaseOnCancel: request.releaseOnCancel === true,
      log: sessionOutputLog(r.context),
      screen,
      ...(gate ? { screenGate: gate } : {}),
      terminal: plan.pty ? { columns: plan.terminal.columns, rows: plan.terminal.rows } : undefined,
      backend: hostBackend ? 'pty-backend' : r.sandbox ? 'sandbox' : 'native',
    },
    r.context,
  );
  return { session, screen, gate };
}

// A start that failed after its cgroup was made removes it; one it could not remove is told.
function cgroupLeft(logger: Logger, id: string, error: unknown): void {
  logger.warn(`procmux: the cgroup of session ${id}, whose start failed, could not be emptied and removed`, {
    sessionId: id,
    error: error instanceof Error ? error.message : String(error),
  });
}

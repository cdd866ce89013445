import { type ManagedRun, type OutputListener, ProcmuxError } from '@procmux/core-types';
import type { ResolvedProcessSessionLimits } from '@procmux/registry';
import type { SandboxPolicy } from '@procmux/sandbox-linux';
import type { ScreenLike } from '@procmux/screen';
import { shellWrap } from '@procmux/shell-wrap';
import type { PidNamespaceSpec, ProcessSupervisor, SessionCgroup } from '@procmux/supervisor';
import { attachBounded } from '../backends/attach-bounded.js';
import { BackendAdapter } from '../backends/backend-adapter.js';
import { hostPtyBackend, type PtyBackendChoice, type PtyBackendHandle } from '../backends/pty-backend.js';
import type { ProcessSandboxBackend, SandboxProcessHandle } from '../backends/sandbox.js';
import { hangUpRun } from '../session/hang-up.js';
import type { LiveSession } from '../session/live-session.js';
import type { ProcessStartRequest } from '../types.js';
import {
  closeWithRun,
  openSandboxedSpawn,
  releaseWithSandbox,
  type SandboxedSpawn,
  sandboxUnsupportedOn,
} from './os-sandbox.js';
import { hostTarget, type StartPlan, shellLine } from './start-plan.js';

export interface SpawnContext {
  supervisor: ProcessSupervisor;
  sandbox: ProcessSandboxBackend | undefined;
  ptyBackend: PtyBackendChoice;
  limits: ResolvedProcessSessionLimits;
  /** The session's cgroup (native sessions on Linux): joined before the command runs. */
  cgroup?: SessionCgroup | undefined;
  /** Without a cgroup: the pid namespace the native run is wrapped in. */
  pidNamespace?: PidNamespaceSpec | undefined;
  /** Without a cgroup of procmux's own: the delegated systemd user scope the run starts in. */
  systemdScope?: { unit: string } | undefined;
}

export interface SpawnedSession {
  run: ManagedRun;
  adapter?: BackendAdapter;
  metadata?: Record<string, unknown>;
  /** The shell that ran a command string; null without one (or a sandbox that did not say). */
  shell: string | null;
}

/**
 * Starts a session's process on the path its registry is set up for — a sandbox, a host PTY
 * backend, or the native adapters — always through the supervisor, so timeouts, terminal
 * queries, drain and kill behave the same on every path.
 */
export async function spawnSession(
  context: SpawnContext,
  session: LiveSession,
  plan: StartPlan,
  request: ProcessStartRequest,
  screen: ScreenLike | undefined,
): Promise<SpawnedSession> {
  const { supervisor, sandbox, ptyBackend, limits } = context;
  // Options every path shares; the built-in adapters also take where and how to run.
  const common = {
    stdin: hostOnlyStdin(plan.stdin, sandbox !== undefined),
    ...(request.input !== undefined ? { input: request.input } : {}),
    ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
    ...(request.noOutputTimeoutMs !== undefined ? { noOutputTimeoutMs: request.noOutputTimeoutMs } : {}),
    ...(screen ? { screen } : {}),
    onStdout: (chunk: string, bytes?: Uint8Array) => session.onOutput('stdout', chunk, bytes),
    onStderr: (chunk: string, bytes?: Uint8Array) => session.onOutput('stderr', chunk, bytes),
    // The session's OutputLog keeps the output; RunExit needs none of it.
    maxCaptureBytes: 0,
    // A sandboxed session's target is the sandbox's launcher (sandboxedTarget).
    ...(plan.sandbox
      ? {}
      : plan.shell
        ? { command: shellLine(plan) }
        : { file: plan.command, args: plan.args }),
  };
  const backend = hostPtyBackend(ptyBackend);
  if (plan.sandbox && sandbox) throw sandboxUnsupportedOn("the host's sandbox backend");
  if (plan.sandbox && plan.pty && backend) checkSandboxOnBackend(backend, plan.sandbox, request);
  // A sandbox that also brings its own PTY backend (a remote host) runs terminals there.
  if (sandbox && !(plan.pty && backend)) {
    const early = earlyOutput();
    const adapter = await attachBounded(
      limits.maxPtyAttachTimeoutMs,
      () =>
        sandbox.startProcess!({
          command: plan.command,
          args: plan.args,
          cwd: plan.cwd,
          env: plan.env,
          shell: plan.shell,
          onStdout: (data) => early.emit('stdout', data),
          onStderr: (data) => early.emit('stderr', data),
        }),
      (handle: SandboxProcessHandle) => new BackendAdapter(handle, 'pipe'),
    );
    early.attach(adapter);
    const run = await supervisor.spawn({ ...common, adapterFactory: async () => adapter });
    return { run, adapter, shell: (adapter.handle as SandboxProcessHandle).shell ?? null };
  }
  if (plan.pty && backend) {
    const early = earlyOutput();
    // The pane runs the sandbox's launcher: its program is as confined as a native one. The
    // tmux server starts it, not this process: through the outer shell, not the launcher
    // this host holds open.
    const boxed = plan.sandbox
      ? await openSandboxedSpawn(session, { ...plan, sandbox: plan.sandbox }, { outerShell: true })
      : undefined;
    const adapter = await attachBounded(
      limits.maxPtyAttachTimeoutMs,
      () =>
        backend.startPty({
          ...(boxed ? { file: boxed.file, args: boxed.args, privateDir: boxed.box.dir } : hostTarget(plan)),
          cwd: plan.cwd,
          env: boxed ? boxed.env : plan.env,
          columns: plan.terminal.columns,
          rows: plan.terminal.rows,
          term: plan.terminal.term,
          lifetime: request.lifetime ?? 'host',
          ...(plan.shell && !boxed ? { shellCommand: shellLine(plan) } : {}),
          onData: (data) => {
            early.emit('stdout', data);
            boxed?.box.scan('stdout', data);
          },
        }),
      (handle: PtyBackendHandle) => new BackendAdapter(handle, 'pty', backend.capabilities?.resize === true),
    ).catch(async (error: unknown) => {
      await boxed?.box.close();
      throw error;
    });
    early.attach(adapter);
    if (boxed) releaseWithSandbox(adapter.handle as PtyBackendHandle, boxed.box);
    const metadata = (adapter.handle as PtyBackendHandle).metadata;
    if (metadata !== undefined) {
      const size = Buffer.byteLength(JSON.stringify(metadata));
      if (size > limits.maxPtyBackendMetadataBytes) {
        await adapter.kill('force');
        throw new ProcmuxError(
          'ERR_PROCESS_PTY_LIMIT',
          `PTY backend metadata is ${size} bytes; at most ${limits.maxPtyBackendMetadataBytes} bytes`,
        );
      }
    }
    const run = await supervisor.spawn({ ...common, adapterFactory: async () => adapter });
    if (boxed) closeWithRun(run, boxed.box);
    const shell = (adapter.handle as PtyBackendHandle).shell ?? localShell(plan);
    return { run, adapter, shell, ...(metadata ? { metadata } : {}) };
  }
  const boxed: SandboxedSpawn | undefined = plan.sandbox
    ? await openSandboxedSpawn(session, { ...plan, sandbox: plan.sandbox })
    : undefined;
  let native: ManagedRun | undefined;
  const run = await supervisor
    .spawn({
      ...common,
      ...(boxed ? sandboxedTarget(boxed, common) : {}),
      // A timeout ends a terminal as closing its window does (kill() and expire() hang up
      // themselves before they cancel): shells and editors end at once, and cleanly.
      beforeForceKill: (reason) =>
        native && (reason === 'overall-timeout' || reason === 'no-output-timeout')
          ? hangUpRun(native)
          : undefined,
      mode: plan.pty ? 'pty' : 'pipe',
      ...(context.cgroup ? { cgroup: context.cgroup } : {}),
      ...(boxed ? { privateDir: boxed.box.dir } : {}),
      ...(context.pidNamespace ? { pidNamespace: context.pidNamespace } : {}),
      ...(context.systemdScope ? { systemdScope: context.systemdScope } : {}),
      // Not in an OS sandbox: its own bwrap and proxy relay would be named (and killed before the
      // output drained); what the program left there ends with the sandbox's namespaces.
      ...(request.endLeftovers === true && !plan.pty && !boxed ? { endLeftovers: true } : {}),
      ptyFallback: request.ptyFallback ?? 'fail',
      cwd: plan.cwd,
      env: boxed ? boxed.env : plan.env,
      cols: plan.terminal.columns,
      rows: plan.terminal.rows,
      term: plan.terminal.term,
    })
    .catch(async (error: unknown) => {
      await boxed?.box.close();
      throw error;
    });
  native = run;
  if (boxed) closeWithRun(run, boxed.box);
  return { run, shell: localShell(plan) };
}

/**
 * Where an OS-sandboxed terminal may run besides the native PTYs: a backend on this host that
 * says so (capabilities.sandbox). The allow-list proxy lives in this host: a session meant to
 * outlive it could reach nothing after, so one with allowed domains is refused, not degraded.
 */
function checkSandboxOnBackend(
  backend: NonNullable<ReturnType<typeof hostPtyBackend>>,
  policy: SandboxPolicy,
  request: ProcessStartRequest,
): void {
  if (backend.capabilities?.sandbox !== true)
    throw sandboxUnsupportedOn(
      'a host PTY backend that does not declare capabilities.sandbox (one on another machine)',
    );
  if (request.lifetime === 'detached' && policy.allowDomains.length > 0) {
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      "a detached (persisted) sandboxed session cannot have allowed domains: the allow-list proxy runs in this host and ends with it; start it with lifetime 'host' or a policy without allowDomains",
    );
  }
}

/** The shell this host wraps a command string in (what the supervisor and hostTarget run). */
function localShell(plan: StartPlan): string | null {
  return plan.shell ? shellWrap(shellLine(plan), { env: plan.env }).shell : null;
}

/** The sandbox's launcher instead of the command, and output scanned for its refusals. */
function sandboxedTarget(
  boxed: SandboxedSpawn,
  common: { onStdout: OutputListener; onStderr: OutputListener },
) {
  return {
    file: boxed.file,
    args: boxed.args,
    onStdout: (chunk: string, bytes?: Uint8Array) => {
      common.onStdout(chunk, bytes);
      boxed.box.scan('stdout', chunk);
    },
    onStderr: (chunk: string, bytes?: Uint8Array) => {
      common.onStderr(chunk, bytes);
      boxed.box.scan('stderr', chunk);
    },
  };
}

/**
 * A terminal stdin is opened on this host: a sandbox's process gets an open pipe instead (the
 * sessions README says so).
 */
function hostOnlyStdin(stdin: StartPlan['stdin'], sandboxed: boolean): StartPlan['stdin'] {
  return stdin === 'terminal' && sandboxed ? 'open' : stdin;
}

/**
 * Output a backend delivers before its handle is wrapped (a remote program can print before
 * the start call returns): held, then handed to the adapter in order, never dropped.
 */
function earlyOutput() {
  let adapter: BackendAdapter | undefined;
  const held: ['stdout' | 'stderr', string][] = [];
  return {
    emit(stream: 'stdout' | 'stderr', data: string) {
      if (adapter) adapter[stream].emit(data);
      else held.push([stream, data]);
    },
    attach(target: BackendAdapter) {
      adapter = target;
      for (const [stream, data] of held.splice(0)) target[stream].emit(data);
    },
  };
}

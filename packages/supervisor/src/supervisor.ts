import { randomBytes } from 'node:crypto';
import {
  abortError,
  booleanOption,
  createTreeMarker,
  DEFAULT_KILL_GRACE_MS,
  functionOption,
  integerOption,
  invalidOption,
  isProcmuxError,
  type LeftoverProcess,
  type Logger,
  loggerOption,
  MAX_KILL_GRACE_MS,
  type ManagedRun,
  oneOf,
  type ProcessAdapter,
  ProcmuxError,
  type PtyPlatformModule,
  type TerminationReason,
} from '@procmux/core-types';
import { CGROUP_JOIN_ENV, JOB_CONTROL_ENV } from '@procmux/shell-wrap';
import { createCancellable, discard } from './cancellable-spawn.js';
import { ChildAdapter } from './child-adapter.js';
import { listLeftovers, readProcFile, sleep, startsBackgroundJob } from './leftovers.js';
import { aimSignalsAtProgram } from './pid-namespace/aim-signals.js';
import { isNamespaceHold } from './pid-namespace/hold.js';
import {
  nodeWaiterStatusEffects,
  reportProgramExit,
  waiterStatusFile,
} from './pid-namespace/waiter-status.js';
import { pidNamespaceTarget } from './pid-namespace/wrap.js';
import { loadPlatform, type PlatformLoader, type PlatformModules, resolvePlatform } from './platform.js';
import { SupervisedRun } from './run.js';
import { assertDirectory, assertExecutable } from './spawn-errors.js';
import { type NormalizedSpawn, normalizeSpawnOptions, type SpawnOptions } from './spawn-options.js';
import { endScopeAfterExit } from './systemd-scope/end-scope.js';
import { runProbe } from './systemd-scope/node-support.js';
import { systemdScopeTarget } from './systemd-scope/support.js';
import { describeTarget, resolveTarget } from './target.js';
import { HostWatchdog, type WatchdogSpawner } from './watchdog/host-watchdog.js';

export interface ProcessSupervisorOptions {
  /** Where warnings go (a PTY fallback, a failed kill, a throwing callback). Default: console. */
  logger?: Logger;
  /** The platform whose packages are loaded (default: the one procmux runs on). */
  platform?: NodeJS.Platform;
  /** Loads the platform packages; inject to simulate a missing one. */
  loadPlatform?: PlatformLoader;
  /** Creates PTY adapters instead of the platform's PTY package (tests, hosts). */
  ptyFactory?: PtyPlatformModule['createPtyAdapter'];
  /** SIGTERM-to-SIGKILL grace of a run's tree kill (default 3000, as killProcessTree's). */
  killGraceMs?: number;
  /**
   * true: the runs of the built-in adapters (pipes, the platform PTY) die with this process on
   * every path — a watchdog process (started on the first spawn) tree-kills them when this
   * process exits, crashes or is SIGKILLed, and an 'exit' hook SIGKILLs their process groups.
   * dispose() stops it. Default false (a bare supervisor leaves lifetimes to its owner);
   * @procmux/sessions turns it on for every registry.
   */
  watchdog?: boolean;
  /** Starts the watchdog process (tests). */
  spawnWatchdog?: WatchdogSpawner;
}

/** Writes warnings to the console; the default when no logger is given. */
export const consoleLogger: Logger = {
  warn(message, fields) {
    console.warn(message, fields ?? '');
  },
};

/**
 * Starts processes and watches them: PTY or pipes (with an optional fallback), timeouts,
 * terminal query answers, cancellation, and a RunExit for each. Each instance owns its runs;
 * cancelAll() ends exactly those.
 *
 * @example
 * const supervisor = new ProcessSupervisor({ logger: console });
 * const run = await supervisor.spawn({ command: 'echo hello', timeoutMs: 10_000 });
 * const exit = await run.wait(); // { reason: 'exit', exitCode: 0, stdout: 'hello\n', ... }
 */
export class ProcessSupervisor {
  private readonly active = new Map<string, SupervisedRun>();
  private readonly logger: Logger;
  private readonly modules: PlatformModules;
  private readonly ptyFactory: PtyPlatformModule['createPtyAdapter'] | undefined;
  private readonly killGraceMs: number | undefined;
  private readonly watchdog: HostWatchdog | undefined;

  constructor(options: ProcessSupervisorOptions = {}) {
    this.logger = loggerOption(options.logger ?? undefined, consoleLogger);
    const loader = functionOption<PlatformLoader>('loadPlatform', options.loadPlatform) ?? loadPlatform;
    this.modules = loader(resolvePlatform(options.platform));
    this.ptyFactory = functionOption('ptyFactory', options.ptyFactory);
    this.killGraceMs = integerOption('killGraceMs', options.killGraceMs, { min: 0, max: MAX_KILL_GRACE_MS });
    this.watchdog = booleanOption('watchdog', options.watchdog, false)
      ? new HostWatchdog({
          platform: this.modules.platform,
          graceMs: this.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
          logger: this.logger,
          ...(options.spawnWatchdog ? { spawnWatchdog: options.spawnWatchdog } : {}),
        })
      : undefined;
  }

  /**
   * Starts a process. Rejects with ERR_INVALID_OPTION for bad options, ERR_PROCESS_SPAWN when
   * the command or cwd is missing, ERR_PROCESS_PTY_BACKEND when a PTY was asked for and
   * cannot be had (unless `ptyFallback: 'pipe'`), ERR_PROCESS_UNSUPPORTED when the platform's
   * kill package is missing, and an AbortError at once when `signal` aborts first.
   */
  async spawn(options: SpawnOptions): Promise<ManagedRun> {
    const spec = normalizeSpawnOptions(options);
    // Minted here, so the watchdog knows the tree (by marker) before its process exists.
    const marker = spec.adapterFactory === undefined ? createTreeMarker() : undefined;
    const cgroupDirs = spec.cgroup?.dirs;
    // A pid-namespace run's waiter writes its own complaints here (see waiter-status.ts).
    const statusDir = spec.pidNamespace === undefined ? undefined : this.makeStatusDir();
    const ownDirs = [spec.privateDir, statusDir].filter((dir): dir is string => dir !== undefined);
    const privateDirs = ownDirs.length === 0 ? undefined : ownDirs;
    if (marker !== undefined)
      this.watchdog?.watch(marker, 0, cgroupDirs, privateDirs, spec.systemdScope?.unit);
    let created: Awaited<ReturnType<ProcessSupervisor['createAdapter']>>;
    try {
      created = await this.createAdapter(spec, marker, statusDir);
    } catch (error) {
      if (statusDir !== undefined) nodeWaiterStatusEffects.removeDir(statusDir);
      await this.closeCgroup(spec);
      if (marker !== undefined) this.watchdog?.unwatch(marker);
      throw error;
    }
    const { adapter, applyStdin, leftovers } = created;
    if (spec.pidNamespace !== undefined) aimSignalsAtProgram(adapter);
    if (statusDir !== undefined) reportProgramExit(adapter, statusDir);
    if (spec.systemdScope !== undefined)
      endScopeAfterExit(adapter, spec.systemdScope.unit, runProbe, (message) => this.logger.warn(message));
    if (marker !== undefined && adapter.pid !== undefined)
      this.watchdog?.watch(marker, adapter.pid, cgroupDirs, privateDirs, spec.systemdScope?.unit);
    const refuse = (error: Error): never => {
      void discard(adapter, (e) => this.warnOrphan(e))
        .then(() => this.closeCgroup(spec))
        .finally(() => {
          if (statusDir !== undefined) nodeWaiterStatusEffects.removeDir(statusDir);
          if (marker !== undefined) this.watchdog?.unwatch(marker);
        });
      throw error;
    };
    if (spec.signal?.aborted) refuse(abortError(spec.signal.reason));
    if (applyStdin && spec.input !== undefined && adapter.stdin === undefined) {
      // The input would be lost: refuse the run rather than start it without it.
      refuse(invalidOption('input', 'given only when the adapter has a stdin (this one has none)'));
    }
    const run = new SupervisedRun(adapter, {
      runId: this.newRunId(),
      spec,
      logger: this.logger,
      applyStdin,
      leftovers,
      onSettled: (settled) => {
        this.active.delete(settled.runId);
        if (marker !== undefined) this.watchdog?.unwatch(marker);
      },
    });
    this.active.set(run.runId, run);
    return run;
  }

  /**
   * Stops the watchdog (if on): it exits without killing anything, and runs still active are
   * no longer tied to this process's life. Does not cancel them (cancelAll() does). Resolves
   * once the watchdog process is gone. Idempotent.
   */
  dispose(): Promise<void> {
    return this.watchdog?.dispose() ?? Promise.resolve();
  }

  /** The watchdog process's pid while one runs (diagnostics, tests). */
  get watchdogPid(): number | undefined {
    return this.watchdog?.pid;
  }

  /** Cancels a run by id. An unknown id (it may have settled already) is a logged no-op. */
  cancel(runId: string, reason: TerminationReason = 'manual-cancel'): void {
    const run = this.active.get(runId);
    if (run === undefined) {
      this.logger.warn('procmux: cancel of an unknown run ignored (it may have finished already)', { runId });
      return;
    }
    run.cancel(reason);
  }

  /** Cancels every run this supervisor owns. */
  cancelAll(reason: TerminationReason = 'manual-cancel'): void {
    for (const run of [...this.active.values()]) run.cancel(reason);
  }

  /** The run with this id while it is active; undefined once its wait() has settled. */
  getActive(runId: string): ManagedRun | undefined {
    return this.active.get(runId);
  }

  // Without it the run still starts, as before the status file: only a SIGKILL from outside
  // would then read as exit 1, which the warning says.
  private makeStatusDir(): string | undefined {
    try {
      return nodeWaiterStatusEffects.makeDir();
    } catch (error) {
      this.logger.warn(
        "procmux: no directory for a pid-namespace waiter's status (a SIGKILL from outside will read as exit 1)",
        { error: error instanceof Error ? error.message : String(error) },
      );
      return undefined;
    }
  }

  // A run that never started still owns its cgroup: emptied and removed, a failure logged.
  private async closeCgroup(spec: NormalizedSpawn): Promise<void> {
    await spec.cgroup?.close().catch((error: unknown) => this.warnOrphan(error));
  }

  /** Every run that has not settled yet. */
  activeRuns(): ManagedRun[] {
    return [...this.active.values()];
  }

  private async createAdapter(
    spec: NormalizedSpawn,
    treeMarker: string | undefined,
    statusDir: string | undefined,
  ): Promise<{
    adapter: ProcessAdapter;
    applyStdin: boolean;
    leftovers?: () => LeftoverProcess[] | undefined;
  }> {
    const onOrphanError = (error: unknown) => this.warnOrphan(error);
    if (spec.adapterFactory !== undefined) {
      const adapter = await createCancellable(spec.adapterFactory, spec.signal, onOrphanError);
      if (!isAdapter(adapter))
        throw invalidOption('adapterFactory', 'a function resolving to a ProcessAdapter');
      return { adapter, applyStdin: true };
    }
    if (spec.mode === 'pty') {
      try {
        const adapter = await createCancellable(
          () => this.createPty(spec, treeMarker, statusDir),
          spec.signal,
          onOrphanError,
        );
        return { adapter, applyStdin: true };
      } catch (error) {
        if (spec.signal?.aborted || isCallersMistake(error)) throw error;
        if (spec.ptyFallback === 'fail') throw ptyBackendError(error);
        this.logger.warn('procmux: PTY spawn failed; falling back to pipes', {
          command: describeTarget(spec.target),
          cause: error instanceof Error ? error.message : String(error),
        });
      }
    }
    let listed: LeftoverProcess[] | undefined;
    const adapter = await createCancellable(
      () =>
        this.createChild(spec, treeMarker, statusDir, (found) => {
          listed = found;
        }),
      spec.signal,
      onOrphanError,
    );
    return { adapter, applyStdin: false, leftovers: () => listed };
  }

  private async createPty(
    spec: NormalizedSpawn,
    treeMarker: string | undefined,
    statusDir: string | undefined,
  ): Promise<ProcessAdapter> {
    // Checked here so a missing cwd reads as such, not as a PTY failure.
    if (spec.cwd !== undefined) await assertDirectory(spec.cwd);
    const create = this.ptyFactory ?? (await this.modules.loadPty()).createPtyAdapter;
    return create({
      ...namespacedTarget(spec, this.modules.platform, statusDir),
      cwd: spec.cwd,
      env: withCgroupJoin(spec),
      cols: spec.cols,
      rows: spec.rows,
      term: spec.term,
      ...(treeMarker !== undefined ? { treeMarker } : {}),
      ...(this.killGraceMs !== undefined ? { killGraceMs: this.killGraceMs } : {}),
    });
  }

  private async createChild(
    spec: NormalizedSpawn,
    treeMarker: string | undefined,
    statusDir: string | undefined,
    onLeftovers: (found: LeftoverProcess[]) => void,
  ): Promise<ProcessAdapter> {
    const { killProcessTree, snapshotProcessTree } = await this.modules.loadKill();
    const { cgroup } = spec;
    // Listed at the exit, before the drain and the stdin terminal's hang-up end any of it.
    const onExit = async (pid: number, argv: readonly string[]) => {
      const pids = async () =>
        cgroup !== undefined
          ? cgroup.members()
          : (
              (await snapshotProcessTree?.(pid, treeMarker !== undefined ? { marker: treeMarker } : {})) ?? []
            ).map((entry) => entry.pid);
      // In a pid namespace the init and its hold sleep are the namespace's, not leftovers.
      const tree = async () =>
        spec.pidNamespace === undefined
          ? pids()
          : (await pids()).filter((p) => !isNamespaceHold(p, readProcFile));
      const found = await listLeftovers(pid, { pids: tree, read: readProcFile, sleep }, argv);
      onLeftovers(found);
      if (found.length === 0) return;
      await killProcessTree(pid, {
        ...(this.killGraceMs !== undefined ? { graceMs: this.killGraceMs } : {}),
        ...(treeMarker !== undefined ? { marker: treeMarker } : {}),
      });
      await cgroup?.kill();
    };
    return ChildAdapter.create({
      ...namespacedTarget(spec, this.modules.platform, statusDir),
      cwd: spec.cwd,
      env: withJobControl(spec, withCgroupJoin(spec)),
      stdin: spec.stdin,
      input: spec.input,
      platform: this.modules.platform,
      killProcessTree,
      killGraceMs: this.killGraceMs,
      ...(treeMarker !== undefined ? { treeMarker } : {}),
      ...(spec.endLeftovers ? { onExit } : {}),
    });
  }

  private newRunId(): string {
    for (;;) {
      const id = randomHex8();
      if (!this.active.has(id)) return id;
    }
  }

  private warnOrphan(error: unknown): void {
    this.logger.warn('procmux: could not kill a process whose spawn was aborted', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

// The child joins its cgroup in the descriptor-closing prologue, before it execs the command.
function withCgroupJoin(spec: NormalizedSpawn): NormalizedSpawn['env'] {
  if (spec.cgroup === undefined) return spec.env;
  return { ...(spec.env ?? process.env), [CGROUP_JOIN_ENV]: spec.cgroup.procsFiles.join(':') };
}

// A pid-namespace run starts `unshare` (a scope run `systemd-run`), which execs the program:
// a missing program is checked here, so it is a spawn error as without either, not exit 127.
function namespacedTarget(
  spec: NormalizedSpawn,
  platform: NodeJS.Platform,
  statusDir: string | undefined,
): NormalizedSpawn['target'] {
  if (spec.pidNamespace === undefined && spec.systemdScope === undefined) return spec.target;
  const env = spec.env ?? process.env;
  const resolved = resolveTarget(spec.target, platform, env);
  assertExecutable(resolved.file, spec.cwd ?? process.cwd(), env, platform);
  if (spec.systemdScope !== undefined) return systemdScopeTarget(resolved, spec.systemdScope.unit);
  const status = statusDir === undefined ? undefined : waiterStatusFile(statusDir);
  return pidNamespaceTarget(resolved, spec.pidNamespace!, status);
}

// Errors that pipes would hit just the same: falling back cannot help.
function isCallersMistake(error: unknown): boolean {
  return isProcmuxError(error, 'ERR_INVALID_OPTION') || isProcmuxError(error, 'ERR_PROCESS_SPAWN');
}

function ptyBackendError(error: unknown): ProcmuxError {
  if (isProcmuxError(error, 'ERR_PROCESS_PTY_BACKEND')) return error;
  return new ProcmuxError(
    'ERR_PROCESS_PTY_BACKEND',
    "a PTY could not be started (see cause); pass ptyFallback: 'pipe' to run on pipes instead",
    { cause: error },
  );
}

function isAdapter(value: unknown): value is ProcessAdapter {
  const adapter = value as Partial<ProcessAdapter> | null;
  return (
    typeof adapter === 'object' &&
    adapter !== null &&
    typeof adapter.wait === 'function' &&
    typeof adapter.kill === 'function' &&
    typeof adapter.onStdout === 'function' &&
    typeof adapter.onStderr === 'function' &&
    typeof adapter.dispose === 'function' &&
    oneOf('adapter.stdioMode', adapter.stdioMode, ['pty', 'pipe']) !== undefined
  );
}

// Run ids come from a pool of random bytes drawn 256 at a time: a draw per spawn cost about
// 0.05 ms of every start.
let idBytes = Buffer.alloc(0);
let idAt = 0;

function randomHex8(): string {
  if (idAt + 4 > idBytes.length) {
    idBytes = randomBytes(256);
    idAt = 0;
  }
  idAt += 4;
  return idBytes.toString('hex', idAt - 4, idAt);
}

// Only with a terminal (the hang-up as the shell exits is what job control keeps off its jobs)
// and a command line that can start one: job control also prints bash's `[1]+ Done` lines.
function withJobControl(spec: NormalizedSpawn, env: NormalizedSpawn['env']): NormalizedSpawn['env'] {
  const command = spec.target.command;
  if (!spec.endLeftovers || spec.stdin !== 'terminal' || command === undefined) return env;
  if (!startsBackgroundJob(command)) return env;
  return { ...(env ?? process.env), [JOB_CONTROL_ENV]: '1' };
}

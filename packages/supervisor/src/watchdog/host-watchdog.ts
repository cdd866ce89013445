// The host side of the watchdog: starts it on the first watched tree, tells it every tree
// as it starts and ends, and adds the synchronous process.on('exit') kill as a second line.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@procmux/core-types';
import { closeInheritedDescriptors } from '@procmux/shell-wrap';
import { killOnExit } from './host-death-kill.js';
import { encodeMessage, type WatchdogMessage, type WatchedTree } from './protocol.js';

// Resolved from src/ and from dist/ alike: the watchdog always runs compiled.
const MAIN = fileURLToPath(new URL('../../dist/watchdog/main.js', import.meta.url));

// How long dispose() waits for the watchdog to take its goodbye before it SIGKILLs it.
const DISPOSE_EXIT_MS = 5_000;

/** Starts the watchdog process; an effect, so tests can count or fake it. */
export type WatchdogSpawner = (file: string, args: string[], env: Record<string, string>) => ChildProcess;

export interface HostWatchdogOptions {
  platform: NodeJS.Platform;
  /** SIGTERM-to-SIGKILL grace of the watchdog's tree kill (POSIX). */
  graceMs: number;
  logger: Logger;
  spawnWatchdog?: WatchdogSpawner;
  /** The process whose 'exit' is hooked (default: this one); injectable for tests. */
  host?: Pick<NodeJS.Process, 'on' | 'off'>;
}

const defaultSpawner: WatchdogSpawner = (file, args, env) =>
  spawn(file, args, {
    env,
    // stdin is the link; nothing else is given (the host's stdio may be an MCP transport).
    stdio: ['pipe', 'ignore', 'ignore'],
    // Its own process group: a signal to the host's group (Ctrl-C) does not reach it.
    detached: true,
    windowsHide: true,
  });

/**
 * One watchdog process per owner (a sessions registry), started lazily on the first
 * `watch()`. It does not keep the host's event loop alive. When its link (a pipe to its
 * stdin) closes without `dispose()` — the host exited, crashed, or was SIGKILLed — it
 * tree-kills every tree still watched, then exits. If it dies, the next `watch()` starts
 * another and hands it every tree.
 */
export class HostWatchdog {
  readonly #trees = new Map<string, WatchedTree>();
  readonly #exitHook = () => this.#killOnExit();
  #child: ChildProcess | undefined;
  #hooked = false;
  #disposed = false;
  #gone: Promise<void> = Promise.resolve();

  constructor(private readonly options: HostWatchdogOptions) {}

  /** The watchdog's pid while it runs (for tests and diagnostics). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Watches the tree with this marker; `pid` 0 before the spawn, then its root's pid.
   * `cgroups`: the session's cgroup directories (membership first), killed and removed too;
   * `dirs`: private directories of the tree's (`procmux-*`), removed after the kill;
   * `scope`: the systemd user scope it runs in, whose every process is killed too.
   */
  watch(
    marker: string,
    pid = 0,
    cgroups?: readonly string[],
    dirs?: readonly string[],
    scope?: string,
  ): void {
    if (this.#disposed) return;
    const known = this.#trees.get(marker);
    const groups = cgroups ?? known?.cgroups;
    const owned = dirs ?? known?.dirs;
    const unit = scope ?? known?.scope;
    const tree: WatchedTree = {
      marker,
      pid,
      ...(groups?.length ? { cgroups: groups } : {}),
      ...(owned?.length ? { dirs: owned } : {}),
      ...(unit === undefined ? {} : { scope: unit }),
    };
    this.#trees.set(marker, tree);
    if (!this.#hooked) {
      this.#hooked = true;
      (this.options.host ?? process).on('exit', this.#exitHook);
    }
    if (this.#child === undefined) this.#start();
    else this.#send(...treeMessages(tree, known));
  }

  /** The tree ended (or left our care): the watchdog forgets it. */
  unwatch(marker: string): void {
    if (!this.#trees.delete(marker) || this.#disposed) return;
    this.#send({ kind: 'remove', marker });
  }

  /**
   * The owner is done: the watchdog exits without killing anything (what is still running
   * was left running on purpose), and the exit hook is removed. Resolves once the watchdog
   * process is gone (one that has not exited 5 s after its goodbye is SIGKILLed).
   */
  dispose(): Promise<void> {
    if (this.#disposed) return this.#gone;
    this.#disposed = true;
    if (this.#hooked) (this.options.host ?? process).off('exit', this.#exitHook);
    const child = this.#child;
    this.#send({ kind: 'bye' });
    child?.stdin?.end();
    this.#child = undefined;
    this.#trees.clear();
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      // Someone awaits this: the host must stay up until the watchdog has gone.
      child.ref();
      this.#gone = new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), DISPOSE_EXIT_MS);
        timer.unref();
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.#gone;
  }

  /** Starts the watchdog and hands it every tree; a failure is logged (sessions go on). */
  #start(): void {
    const { platform, graceMs } = this.options;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
    const exec = closeInheritedDescriptors(
      { file: process.execPath, args: [MAIN, '--platform', platform, '--grace-ms', String(graceMs)], env },
      { platform },
    );
    let child: ChildProcess;
    try {
      child = (this.options.spawnWatchdog ?? defaultSpawner)(exec.file, exec.args, exec.env);
    } catch (error) {
      this.#warn(error);
      return;
    }
    child.on('error', (error) => this.#warn(error));
    child.stdin?.on('error', () => {});
    child.once('exit', () => {
      if (this.#child === child) this.#child = undefined;
    });
    // Neither the process nor its pipe may keep the host alive.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    this.#child = child;
    this.#send(...[...this.#trees.values()].flatMap((tree) => treeMessages(tree)));
  }

  // One write per call: each wakes the watchdog (a session's start and end were nine).
  #send(...messages: WatchdogMessage[]): void {
    const stdin = this.#child?.stdin;
    if (stdin?.writable && messages.length > 0) stdin.write(messages.map(encodeMessage).join(''));
  }

  #killOnExit(): void {
    killOnExit([...this.#trees.values()], this.options.platform, {
      signal: (target, signal) => process.kill(target, signal),
      killCgroupSync: (dir) => writeFileSync(`${dir}/cgroup.kill`, '1'),
      runSync: (file, args) => {
        execFileSync(file, args, { stdio: 'ignore', windowsHide: true, timeout: 5_000 });
      },
    });
  }

  #warn(error: unknown): void {
    this.options.logger.warn(
      'procmux: the host-death watchdog could not run; sessions still end on dispose()',
      {
        error: error instanceof Error ? error.message : String(error),
      },
    );
  }
}

/**
 * The lines that tell the watchdog `tree`: all of it, or, when it already has `known` (the same
 * tree before its pid), the pid and only what is new (its lines stay with the tree).
 */
function treeMessages(tree: WatchedTree, known?: WatchedTree): WatchdogMessage[] {
  const messages: WatchdogMessage[] = [{ kind: 'add', tree: { marker: tree.marker, pid: tree.pid } }];
  for (const dir of tree.cgroups ?? [])
    if (!known?.cgroups?.includes(dir)) messages.push({ kind: 'cgroup', marker: tree.marker, dir });
  for (const dir of tree.dirs ?? [])
    if (!known?.dirs?.includes(dir)) messages.push({ kind: 'dir', marker: tree.marker, dir });
  if (tree.scope !== undefined && tree.scope !== known?.scope)
    messages.push({ kind: 'scope', marker: tree.marker, unit: tree.scope });
  return messages;
}

// What happens to a host's trees when the host dies: pure functions of the platform and
// injected effects, so the Windows branches are unit-tested on Linux.
import type { KillReport, KillTreeOptions } from '@procmux/core-types';
import type { WatchedTree } from './protocol.js';

export type TreeKillFn = (pid: number, options: KillTreeOptions & { marker?: string }) => Promise<KillReport>;

/** The effects the watchdog's kill needs: the platform's verified tree kill and a marker lookup. */
export interface WatchdogKillEffects {
  killTree: TreeKillFn;
  /** Live pids carrying `marker` (POSIX /proc), for a tree registered before its pid was known. */
  carriers(marker: string): Promise<number[]>;
  /**
   * Kills every member of a tree's cgroup and removes its directories (Linux); resolves to
   * the members that survived. Absent: trees are killed by the tree kill only.
   */
  killCgroup?(dirs: readonly string[]): Promise<number[]>;
  /** Removes a tree's private directory (recursively); absent: they are left. */
  removeDir?(dir: string): Promise<void>;
  /** SIGKILLs every process in a systemd user scope (Linux); absent: scopes are left. */
  killScope?(unit: string): Promise<void>;
}

/**
 * The watchdog's answer to a closed link: the verified tree kill of every watched tree at
 * once. POSIX: SIGTERM to each tree, SIGKILL after `graceMs`, setsid escapees by marker;
 * then each tree's private directories are removed.
 * Windows: `taskkill /T /F` at once (graceMs 0) — the host is gone, nobody waits for a
 * console program's goodbye, and Windows has no SIGTERM a program could honour.
 * Resolves to the pids that survived (none, on success).
 */
export async function killAtHostDeath(
  trees: readonly WatchedTree[],
  platform: NodeJS.Platform,
  graceMs: number,
  effects: WatchdogKillEffects,
): Promise<number[]> {
  const grace = platform === 'win32' ? 0 : graceMs;
  const reports = await Promise.all(
    trees.map(async (tree) => {
      const roots =
        tree.pid > 0 ? [tree.pid] : platform === 'win32' ? [] : await effects.carriers(tree.marker);
      const cgroup =
        tree.cgroups && tree.cgroups.length > 0 && effects.killCgroup
          ? effects.killCgroup(tree.cgroups).catch(() => [] as number[])
          : Promise.resolve([] as number[]);
      const results = await Promise.all(
        roots.map((pid) =>
          effects.killTree(pid, { graceMs: grace, marker: tree.marker }).catch(() => ({
            signalled: [],
            survivors: [pid],
          })),
        ),
      );
      const cgroupSurvivors = await cgroup;
      // A scope's cgroup holds what left the tree and cleared its environment (the escapee).
      if (tree.scope !== undefined) await effects.killScope?.(tree.scope).catch(() => {});
      // After the kill: a sandbox's processes use its private directory until they are gone.
      for (const dir of tree.dirs ?? []) await effects.removeDir?.(dir).catch(() => {});
      return [...new Set([...results.flatMap((report) => report.survivors), ...cgroupSurvivors])];
    }),
  );
  return reports.flat();
}

/** What the synchronous exit path may do: signal a process or group, or run a command and wait. */
export interface ExitKillEffects {
  signal(target: number, signal: 'SIGKILL'): void;
  runSync(file: string, args: readonly string[]): void;
  /** Writes the cgroup's kill file (v2 cgroup.kill): every member dies at once. */
  killCgroupSync?(dir: string): void;
}

/**
 * The second line, run inside process.on('exit') (synchronous only): SIGKILL every watched
 * process group (each tree's root leads its own group, POSIX) or `taskkill /T /F` each root
 * (Windows). Escapees that left the group are the watchdog's (it finds them by marker).
 */
export function killOnExit(
  trees: readonly WatchedTree[],
  platform: NodeJS.Platform,
  effects: ExitKillEffects,
): void {
  for (const tree of trees) {
    const membership = tree.cgroups?.[0];
    if (membership !== undefined && effects.killCgroupSync) {
      try {
        effects.killCgroupSync(membership);
      } catch {
        // No cgroup.kill (v1) or gone: the group kill below and the watchdog remain.
      }
    }
    // Never a group id that means "every process" (-1) or init's: only real roots.
    if (!Number.isInteger(tree.pid) || tree.pid <= 1) continue;
    try {
      if (platform === 'win32') effects.runSync('taskkill', ['/T', '/F', '/PID', String(tree.pid)]);
      else effects.signal(-tree.pid, 'SIGKILL');
    } catch {
      // Already gone, or not ours to signal any more: nothing to do on the way out.
    }
  }
}

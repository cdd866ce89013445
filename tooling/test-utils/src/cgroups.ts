// Teardown check for kernel containment: every cgroup procmux makes is named
// `procmux-<host pid>-<session>` (packages/supervisor/src/cgroup/plan.ts) and must be gone
// once its session ended, also after the host was SIGKILLed (the watchdog removes it).
// Found by walking every cgroup mount, not only the host's own cgroup: a cgroup made anywhere
// else would be a bug this check must see too.
import { readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, type ProcessInfo, processTable } from './process-table.js';

const NAME = /^procmux-(\d+)-/;
const MAX_DEPTH = 8;

/** A procmux cgroup directory and the pid of the host that made it. */
export interface ProcmuxCgroup {
  dir: string;
  hostPid: number;
}

/** Every cgroup mount point of this machine (cgroup and cgroup2), from /proc/self/mountinfo. */
export function cgroupMounts(): string[] {
  if (process.platform !== 'linux') return [];
  let text: string;
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return [];
  }
  const mounts = new Set<string>();
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    const fstype = right?.split(' ')[0];
    if (fstype === 'cgroup' || fstype === 'cgroup2') mounts.add(left!.split(' ')[4]!);
  }
  return [...mounts];
}

/** Every `procmux-<pid>-…` cgroup on this machine, in every hierarchy. */
export function procmuxCgroups(): ProcmuxCgroup[] {
  const found: ProcmuxCgroup[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      const match = NAME.exec(entry.name);
      if (match) found.push({ dir: path, hostPid: Number(match[1]) });
      else if (depth < MAX_DEPTH) walk(path, depth + 1);
    }
  };
  for (const mount of cgroupMounts()) walk(mount, 0);
  return found;
}

/**
 * procmux cgroups left behind by this process or by `hosts` (hosts a test started, alive or
 * not). Another worker's are its own business, even when their host is gone: a host another
 * file just SIGKILLed leaves its cgroups to its watchdog for a moment, and a check here must
 * neither blame this file for them nor remove them under that test.
 */
export function leakedCgroups(hosts: Iterable<number> = []): ProcmuxCgroup[] {
  const ours = new Set([process.pid, ...hosts]);
  return procmuxCgroups().filter((c) => ours.has(c.hostPid));
}

/**
 * procmux cgroups whose host is no longer alive, whoever made it (the end-of-run check). A tmux
 * pane's whose pane still runs is not one: a detached pane outlives the host that made its
 * cgroup on purpose (another package's recovery test, running beside this run's teardown).
 */
export function orphanedCgroups(): ProcmuxCgroup[] {
  const table = processTable();
  return procmuxCgroups().filter(
    (c) => c.hostPid !== process.pid && !isAlive(c.hostPid) && !paneRuns(c.dir, table),
  );
}

/** A tmux pane's cgroup (`procmux-<host pid>-pm-<12 hex>`, @procmux/backend-tmux). */
const PANE = /\/procmux-\d+-pm-[0-9a-f]{12}$/;

// The pane's own process (a child of its tmux server) is still a member: the pane runs. What
// a dead pane left behind (an escapee) has no tmux parent, and stays a leak.
function paneRuns(dir: string, table: ProcessInfo[]): boolean {
  if (!PANE.test(dir)) return false;
  let members: number[];
  try {
    members = readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return false;
  }
  const byPid = new Map(table.map((p) => [p.pid, p]));
  return members.some((pid) => /^(\S*\/)?tmux\b/.test(byPid.get(byPid.get(pid)?.ppid ?? 0)?.command ?? ''));
}

/** Kills every member of a leaked cgroup and removes it, so one leak cannot poison the next test. */
export function removeCgroup(dir: string): void {
  try {
    writeFileSync(join(dir, 'cgroup.kill'), '1');
  } catch {
    try {
      for (const pid of readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean))
        process.kill(Number(pid), 'SIGKILL');
    } catch {}
  }
  try {
    rmdirSync(dir);
  } catch {}
}

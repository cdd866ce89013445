// Teardown check: nothing a test file started may outlive it.
import { leakedCgroups, removeCgroup } from './cgroups.js';
import { descendantsOf, isAlive, type ProcessInfo, processTable } from './process-table.js';

const tracked = new Set<number>();
const WATCHDOG = /[/\\]supervisor[/\\]dist[/\\]watchdog[/\\]main\.js\b/;

/** Remember a pid started outside procmux (raw node-pty, child_process) so teardown checks it. */
export function trackPid(pid: number | undefined): void {
  if (pid !== undefined) tracked.add(pid);
}

/**
 * Processes this test worker is responsible for: its live descendants, any process carrying a
 * PROCMUX_TREE marker minted by this worker or by a tracked process (which catches setsid
 * escapees reparented to init, and sessions a tracked host left in tmux), and every pid passed
 * to trackPid().
 */
export function leakedProcesses(): ProcessInfo[] {
  const table = processTable();
  const byPid = new Map<number, ProcessInfo>();
  for (const info of descendantsOf(process.pid, table)) byPid.set(info.pid, info);
  // Markers minted by a tracked process too: a host this worker started (procmux mcp, a
  // child registry) marks its sessions with its own pid, and a tmux-held one is no descendant.
  const prefixes = [process.pid, ...tracked].map((pid) => `${pid}-`);
  for (const info of table) {
    const marker = info.marker;
    if (info.state !== 'Z' && marker !== undefined && prefixes.some((p) => marker.startsWith(p)))
      byPid.set(info.pid, info);
  }
  for (const pid of tracked) {
    if (!isAlive(pid)) continue;
    const info = table.find((p) => p.pid === pid);
    byPid.set(pid, info ?? { pid, ppid: 0, pgid: 0, state: '?', command: '?', marker: undefined });
  }
  byPid.delete(process.pid);
  // A live registry's watchdog (our own child) is not a leak: it exits on dispose(), or kills
  // the registry's sessions when this process ends (test-e2e/containment checks both).
  for (const info of byPid.values()) {
    if (info.ppid === process.pid && WATCHDOG.test(info.command)) byPid.delete(info.pid);
  }
  return [...byPid.values()];
}

/**
 * Waits up to `settleMs` for stragglers to finish dying, then throws listing any survivor and
 * kills it, so one leaking test cannot poison the next. Procmux cgroups count too (Linux): one
 * made by this process or a tracked host, or by a host that is gone, must not be left.
 */
export async function assertNoLeakedProcesses(settleMs = 3_000): Promise<void> {
  const deadline = Date.now() + settleMs;
  let leaked = leakedProcesses();
  let cgroups = leakedCgroups(tracked);
  while ((leaked.length > 0 || cgroups.length > 0) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    leaked = leakedProcesses();
    cgroups = leakedCgroups(tracked);
  }
  tracked.clear();
  for (const { dir } of cgroups) removeCgroup(dir);
  if (leaked.length === 0 && cgroups.length > 0)
    throw new Error(`procmux cgroups left by this test file:\n  ${cgroups.map((c) => c.dir).join('\n  ')}`);
  if (leaked.length === 0) return;
  for (const info of leaked) {
    try {
      process.kill(info.pid, 'SIGKILL');
    } catch {}
  }
  const list = leaked.map((p) => `${p.pid} (ppid ${p.ppid}, pgid ${p.pgid}): ${p.command}`).join('\n  ');
  throw new Error(`processes left alive by this test file:\n  ${list}`);
}

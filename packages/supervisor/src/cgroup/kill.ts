// Ending every process of a cgroup, and removing it: shared by a session's own kill and by
// the watchdog after the host died. Effects are injected, so the v1 path (freeze, SIGKILL
// each member, thaw) is unit-tested on a v2 host.

/** The file-system and signal effects a cgroup needs; all synchronous (cgroupfs answers at once). */
export interface CgroupEffects {
  mkdir(dir: string): void;
  rmdir(dir: string): void;
  write(file: string, value: string): void;
  read(file: string): string;
  exists(file: string): boolean;
  kill(pid: number, signal: 'SIGKILL'): void;
}

/** The pids in `dir`'s cgroup.procs ([] once it is gone). */
export function members(dir: string, effects: CgroupEffects): number[] {
  let text: string;
  try {
    text = effects.read(`${dir}/cgroup.procs`);
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);
}

const POLL_MS = 1;

/**
 * SIGKILLs every member of `dir` and waits until none is left: v2 writes cgroup.kill (one
 * write, no race with fork); a v1 freezer cgroup is frozen first so nothing forks between
 * reading its members and killing them; elsewhere members are killed until none is left.
 * Resolves to the pids signalled and those still members after `timeoutMs`.
 */
export async function killCgroup(
  dir: string,
  effects: CgroupEffects,
  timeoutMs = 5_000,
): Promise<{ signalled: number[]; survivors: number[] }> {
  const before = members(dir, effects);
  if (before.length === 0) return { signalled: [], survivors: [] };
  const signalled = new Set(before);
  if (effects.exists(`${dir}/cgroup.kill`)) {
    effects.write(`${dir}/cgroup.kill`, '1');
  } else if (effects.exists(`${dir}/freezer.state`)) {
    effects.write(`${dir}/freezer.state`, 'FROZEN');
    await until(() => effects.read(`${dir}/freezer.state`).trim() === 'FROZEN', timeoutMs);
    for (const pid of members(dir, effects)) signalOne(pid, effects, signalled);
    effects.write(`${dir}/freezer.state`, 'THAWED');
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = members(dir, effects);
    if (left.length === 0) return { signalled: [...signalled], survivors: [] };
    if (Date.now() >= deadline) return { signalled: [...signalled], survivors: left };
    // Without cgroup.kill a member may fork between the read and the kill: go round again.
    if (!effects.exists(`${dir}/cgroup.kill`)) for (const pid of left) signalOne(pid, effects, signalled);
    await sleep(POLL_MS);
  }
}

/**
 * Kills what is left in the membership cgroup, then removes every directory (the deepest
 * first). A directory that is already gone is fine; one that stays busy past `timeoutMs`
 * is returned, so the caller can say so.
 */
export async function killAndRemove(
  membership: string,
  dirs: readonly string[],
  effects: CgroupEffects,
  timeoutMs = 5_000,
): Promise<{ survivors: number[]; left: string[] }> {
  const { survivors } = await killCgroup(membership, effects, timeoutMs);
  const left: string[] = [];
  for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
    if (!(await removeDir(dir, effects, timeoutMs))) left.push(dir);
  }
  return { survivors, left };
}

// rmdir is EBUSY while a killed member is still being torn down: retried briefly.
async function removeDir(dir: string, effects: CgroupEffects, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      effects.rmdir(dir);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return true;
      if (code !== 'EBUSY' || Date.now() >= deadline) return false;
      for (const pid of members(dir, effects)) signalOne(pid, effects, new Set());
      await sleep(POLL_MS);
    }
  }
}

function signalOne(pid: number, effects: CgroupEffects, signalled: Set<number>): void {
  try {
    effects.kill(pid, 'SIGKILL');
    signalled.add(pid);
  } catch {
    // Gone already.
  }
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await sleep(POLL_MS);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// A `sleep` is fully started only once it blocks in its nanosleep: right after the exec,
// /proc/<pid>/exe already names it while glibc still opens locale files (a transient fd 3).
import { readFileSync, readlinkSync } from 'node:fs';
import { waitFor } from './wait-for.js';

// clock_nanosleep and nanosleep, by architecture (for kernels that do not show wchan).
const SLEEP_SYSCALLS: Partial<Record<NodeJS.Architecture, readonly number[]>> = {
  x64: [230, 35],
  arm64: [115, 101],
};

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** True when `pid` runs `sleep` and is blocked in its sleep (Linux /proc). */
export function isSleeping(pid: number): boolean {
  try {
    if (!readlinkSync(`/proc/${pid}/exe`).endsWith('sleep')) return false;
  } catch {
    return false;
  }
  const wchan = read(`/proc/${pid}/wchan`);
  if (wchan !== undefined && wchan !== '0' && wchan !== '') return wchan.includes('nanosleep');
  const syscall = Number(read(`/proc/${pid}/syscall`)?.split(' ')[0]);
  return SLEEP_SYSCALLS[process.arch]?.includes(syscall) ?? false;
}

/** Waits (generously) until `pid` is a `sleep` blocked in its sleep; Linux only. */
export function waitForSleep(pid: number, timeoutMs = 10_000): Promise<boolean> {
  return waitFor(() => isSleeping(pid), timeoutMs, `sleep ${pid} sleeping`);
}

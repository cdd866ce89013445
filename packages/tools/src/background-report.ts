// What a one_shot still had running when it ended. `sleep 30 & echo started` returns at
// once and its background child ends with the one_shot's tree, which is right; the reply must
// say so, or a model believes its server runs. The session names them (endLeftovers) when its
// process exits, then ends them: no trap in the shell, so bash still execs the last command
// (its pid, signal and exit are the program's).
import { existsSync, readFileSync } from 'node:fs';
import type { LeftoverProcess } from '@procmux/core-types';

/** A process of the one_shot still alive when its command ended. */
export type EndedProcess = LeftoverProcess;

/** The note a one_shot's reply carries when it ended background processes. */
export function endedNote(ended: readonly EndedProcess[]): string | undefined {
  if (ended.length === 0) return undefined;
  const what = ended.map((p) => p.command).join(', ');
  const count = `${ended.length} background process${ended.length === 1 ? '' : 'es'}`;
  return `Ended with it: ${count} (${what}). Use mode 'daemon' for a program that must keep running.`;
}

/** Whether `pid` still runs (a zombie counts as ended). Linux reads /proc; elsewhere signal 0. */
export function stillRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync('/proc/self/stat')) return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The hang-up reaches the jobs as the shell exits: give them a moment to go before asking. */
const SETTLE_MS = 500;

/** Splits the jobs into those that ended and those that outlived the one_shot (e.g. nohup). */
export async function settleJobs(
  jobs: readonly EndedProcess[],
): Promise<{ ended: EndedProcess[]; survivors: EndedProcess[] }> {
  const deadline = Date.now() + SETTLE_MS;
  let survivors = jobs.filter((job) => stillRunning(job.pid));
  while (survivors.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    survivors = survivors.filter((job) => stillRunning(job.pid));
  }
  return { ended: jobs.filter((job) => !survivors.includes(job)), survivors };
}

/** The note for jobs that outlived the one_shot (they ignored the hang-up). */
export function survivorsNote(survivors: readonly EndedProcess[]): string | undefined {
  if (survivors.length === 0) return undefined;
  const what = survivors.map((p) => `${p.command}, pid ${p.pid}`).join('; ');
  return (
    `Still running after it: ${survivors.length} background process${survivors.length === 1 ? '' : 'es'} (${what}), ` +
    "outside procmux's control. Use mode 'daemon' for a program that must keep running."
  );
}

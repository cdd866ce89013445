// What a one_shot still had running when it ended. `sleep 30 & echo started` returns at
// once and its background child ends with the one_shot's tree, which is right; the reply must
// say so, or a model believes its server runs. The session names them (endLeftovers) when its
// process exits, then ends them: no trap in the shell, so bash still execs the last command
// (its pid, signal and exit are the program's).
import { existsSync, readFileSync } from 'node:fs';
import type { LeftoverProcess } from '@procmux/core-types';

/** A process of the one_shot still alive when its command ended. */
export type EndedProcess = LeftoverProcess;

/** Whose reply names them: a one_shot's, or any other of a session that ended on its own (a daemon's). */
export type LeftoverReader = 'one_shot' | 'session';

// A daemon whose launcher backgrounds the server and exits (`pg_ctl start`, `cmd &`) ends, and
// the server with it: mode 'daemon' is not the cure there, the foreground command is.
const ADVICE: Record<LeftoverReader, string> = {
  one_shot: "Use mode 'daemon' for a program that must keep running.",
  session:
    'A session lasts as long as its own process: run the program itself in the foreground ' +
    "(no '&', nohup or setsid; for example 'postgres -D DIR', not 'pg_ctl start').",
};

/** The note a reply carries when the session's end ended background processes. */
export function endedNote(
  ended: readonly EndedProcess[],
  reader: LeftoverReader = 'one_shot',
): string | undefined {
  if (ended.length === 0) return undefined;
  const what = ended.map((p) => p.command).join(', ');
  const count = `${ended.length} background process${ended.length === 1 ? '' : 'es'}`;
  const when = reader === 'session' ? ', left running when its own process exited' : '';
  return `Ended with it: ${count} (${what})${when}. ${ADVICE[reader]}`;
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

/** The note for jobs that outlived the session (the tree kill could not end them). */
export function survivorsNote(
  survivors: readonly EndedProcess[],
  reader: LeftoverReader = 'one_shot',
): string | undefined {
  if (survivors.length === 0) return undefined;
  const what = survivors.map((p) => `${p.command}, pid ${p.pid}`).join('; ');
  return (
    `Still running after it: ${survivors.length} background process${survivors.length === 1 ? '' : 'es'} (${what}), ` +
    `outside procmux's control. ${ADVICE[reader]}`
  );
}

/**
 * What a session that exited on its own had left running, for a reply other than its
 * one_shot's (a daemon's start, a poll): nothing unless it exited with leftovers. Not for a
 * kill or a timeout: those end the whole tree, and say so themselves.
 */
export function leftoverReport(meta: { state: string; leftovers?: readonly EndedProcess[] }): {
  notes: (string | undefined)[];
  data: { ended?: EndedProcess[]; survivors?: EndedProcess[] };
} {
  const leftovers = meta.state === 'exited' ? (meta.leftovers ?? []) : [];
  if (leftovers.length === 0) return { notes: [], data: {} };
  // The tree kill ran (and its grace passed) before the session settled: no hang-up to wait for.
  const survivors = leftovers.filter((job) => stillRunning(job.pid));
  const ended = leftovers.filter((job) => !survivors.includes(job));
  return {
    notes: [endedNote(ended, 'session'), survivorsNote(survivors, 'session')],
    data: {
      ...(ended.length > 0 ? { ended } : {}),
      ...(survivors.length > 0 ? { survivors } : {}),
    },
  };
}

// What a one_shot still had running when it ended. `sleep 30 & echo started` returns at
// once and its background child ends with the one_shot's tree (the terminal's hang-up, or the
// tree kill), which is right; the reply must say so, or a model believes its server runs.
// The tree is gone by the time the exit is seen, so bash lists its jobs itself on the way out:
// BASH_ENV names a probe that sets an EXIT trap appending `jobs -l` to a report file.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A background process of the one_shot, as its shell listed it at exit. */
export interface EndedProcess {
  pid: number;
  command: string;
}

// Unset first, so no shell below the one_shot's own sources it again. The report is appended
// to, because bash may run the EXIT trap twice (again when the hang-up reaches it).
const PROBE = `unset BASH_ENV
if [ -n "\${PROCMUX_EXIT_REPORT:-}" ]; then
  __procmux_exit_report=$PROCMUX_EXIT_REPORT
  unset PROCMUX_EXIT_REPORT
  trap 'jobs -l >> "$__procmux_exit_report" 2>/dev/null' EXIT
fi
`;

/** One one_shot's report: the environment that asks for it, and reading it once it ended. */
export interface BackgroundReport {
  readonly env: Record<string, string>;
  /** The jobs still running at exit (read once; the file is removed). */
  read(): EndedProcess[];
  /** Removes the file unread (the one_shot went on in the background). */
  discard(): void;
}

/** A private directory per one_shot (the probe and its report), removed once read or discarded. */
export function backgroundReport(): BackgroundReport {
  const dir = mkdtempSync(join(tmpdir(), 'procmux-exit-'));
  writeFileSync(join(dir, 'probe.sh'), PROBE, { mode: 0o600 });
  const file = join(dir, 'jobs');
  const remove = () => rmSync(dir, { recursive: true, force: true });
  return {
    env: { BASH_ENV: join(dir, 'probe.sh'), PROCMUX_EXIT_REPORT: file },
    read() {
      let text = '';
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        return [];
      } finally {
        remove();
      }
      return parseJobs(text);
    },
    discard: remove,
  };
}

/** `jobs -l` lines of running jobs: `[1]+ 4242 Running                 sleep 30 &`. */
export function parseJobs(text: string): EndedProcess[] {
  const seen = new Map<number, EndedProcess>();
  for (const line of text.split('\n')) {
    const match = /^\[\d+\][+-]?\s+(\d+)\s+Running\s+(.*?)\s*&?\s*$/.exec(line);
    if (match) seen.set(Number(match[1]), { pid: Number(match[1]), command: match[2]! });
  }
  return [...seen.values()];
}

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

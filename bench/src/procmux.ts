// Running a command through procmux's supervisor with the same deadline and cleanup
// discipline as the raw side.
import type { RunExit } from '@procmux/core-types';
import { benchEnv, track, untrack } from './processes.js';
import type { SupervisorSpawnView, SupervisorView } from './procmux-api.js';
import { withTimeout } from './timing.js';

/** Spawns through the supervisor and waits for the RunExit; cancels the run if it overstays. */
export async function supervisedRun(
  supervisor: SupervisorView,
  options: SupervisorSpawnView,
  timeoutMs: number,
): Promise<RunExit> {
  // Stdin as on the raw side: at EOF on pipes (child_process 'ignore'), untouched in a PTY.
  const stdin = options.mode === 'pipe' ? 'closed' : 'open';
  const run = await supervisor.spawn({ env: benchEnv(), ptyFallback: 'fail', stdin, ...options });
  track(run.pid);
  try {
    return await withTimeout(run.wait(), timeoutMs, `procmux ${options.mode} run of ${options.command}`);
  } catch (error) {
    run.cancel();
    throw error;
  } finally {
    untrack(run.pid);
  }
}

/** Throws when a run that should have succeeded did not, so a broken run is never timed. */
export function expectSuccess(exit: RunExit | number | null, what: string): void {
  const code = typeof exit === 'object' && exit !== null ? exit.exitCode : exit;
  if (code !== 0) {
    const detail =
      typeof exit === 'object' && exit !== null ? ` (${exit.reason}, signal ${exit.signal})` : '';
    throw new Error(`${what} exited with ${code}${detail}`);
  }
}

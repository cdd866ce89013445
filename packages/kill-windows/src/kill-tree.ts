// taskkill /T, a grace watched by polling, then taskkill /T /F.
import { type KillReport, type KillTreeOptions, ProcmuxError } from '@procmux/core-types';
import { resolveGraceMs, validateOptions, validatePid } from './options.js';
import { type ExecResult, type WindowsKillEffects, windowsKillEffects } from './platform.js';
import { TASKKILL_NOT_FOUND, taskkillArgs, taskkillPath } from './taskkill.js';

/** How long a force-killed process gets to disappear before it counts as a survivor. */
export const KILL_SETTLE_MS = 2_000;
const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 100;

async function taskkill(effects: WindowsKillEffects, pid: number, force: boolean): Promise<ExecResult> {
  const file = taskkillPath(effects.env);
  try {
    return await effects.exec(file, taskkillArgs(pid, force));
  } catch (cause) {
    throw new ProcmuxError('ERR_PROCESS_UNSUPPORTED', `could not run ${file}, so the tree cannot be killed`, {
      cause,
      details: { file },
    });
  }
}

/** Polls until the pid is gone (true) or `ms` have passed (false). */
async function waitGone(effects: WindowsKillEffects, pid: number, ms: number): Promise<boolean> {
  const deadline = effects.now() + ms;
  let delay = FIRST_POLL_MS;
  for (;;) {
    if (!effects.isAlive(pid)) return true;
    const left = deadline - effects.now();
    if (left <= 0) return false;
    await effects.sleep(Math.min(delay, left));
    delay = Math.min(delay * 2, MAX_POLL_MS);
  }
}

/** killProcessTree with its effects injected (tests simulate taskkill with them). */
export async function killTreeWith(
  pid: number,
  options: unknown,
  effects: WindowsKillEffects,
): Promise<KillReport> {
  const root = validatePid(pid, effects.selfPid);
  const graceMs = resolveGraceMs(validateOptions<KillTreeOptions>(options).graceMs);
  const signalled: number[] = [];

  if (graceMs > 0) {
    const soft = await taskkill(effects, root, false);
    if (soft.code === TASKKILL_NOT_FOUND) return { signalled: [], survivors: [] };
    // A refused soft kill (console programs accept only /F; access denied) asked nothing to
    // stop, so waiting out the grace would only delay the forced kill.
    if (soft.code === 0) {
      signalled.push(root);
      if (await waitGone(effects, root, graceMs)) return { signalled, survivors: [] };
    }
  }

  const hard = await taskkill(effects, root, true);
  if (hard.code === 0 && signalled.length === 0) signalled.push(root);
  if (hard.code === TASKKILL_NOT_FOUND) return { signalled, survivors: [] };
  const gone = await waitGone(effects, root, KILL_SETTLE_MS);
  return { signalled, survivors: gone ? [] : [root] };
}

/**
 * Kills a process and its whole tree on Windows: `taskkill /PID <pid> /T` asks the tree to
 * close, the pid is polled until it is gone or `graceMs` (default 3000, clamped to 0..60000)
 * has passed, then `taskkill /PID <pid> /T /F` terminates what is left. taskkill.exe runs from
 * %SystemRoot%\System32 through execFile, without a shell. A pid that is already gone resolves
 * with nothing signalled.
 *
 * Rejects with ERR_INVALID_OPTION for a bad pid or graceMs, ERR_PROCESS_UNSUPPORTED off
 * Windows or when taskkill.exe cannot be started.
 *
 * @example
 * const report = await killProcessTree(child.pid!, { graceMs: 2000 });
 * if (report.survivors.length > 0) console.warn('still alive:', report.survivors);
 */
export async function killProcessTree(pid: number, options?: KillTreeOptions): Promise<KillReport> {
  return killTreeWith(pid, options, windowsKillEffects());
}

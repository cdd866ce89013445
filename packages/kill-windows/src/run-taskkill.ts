// Running taskkill.exe and watching a pid go.
import { ProcmuxError } from '@procmux/core-types';
import type { ExecResult, WindowsKillEffects } from './platform.js';
import { taskkillArgs, taskkillPath } from './taskkill.js';

/** How long a force-killed process gets to disappear before it counts as a survivor. */
export const KILL_SETTLE_MS = 2_000;
const FIRST_POLL_MS = 5;
const MAX_POLL_MS = 100;

export async function taskkill(
  effects: WindowsKillEffects,
  pid: number,
  force: boolean,
): Promise<ExecResult> {
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
export async function waitGone(effects: WindowsKillEffects, pid: number, ms: number): Promise<boolean> {
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

import type { ManagedRun } from '@procmux/core-types';

/** How long a hung-up terminal gets to end before the tree kill (SIGTERM, then SIGKILL) goes on. */
export const HANG_UP_WAIT_MS = 500;

/**
 * The graceful step before a forced end of a native terminal session (kill(), expiry, a
 * timeout): the run hangs its terminal up (its adapter signals, never the session), then the
 * program gets HANG_UP_WAIT_MS to end. An interactive shell ignores SIGTERM, so without this
 * it sat out the whole SIGTERM grace (3 s) before SIGKILL; the tree kill that follows reaps
 * whatever is left. Nothing for a run with no terminal to hang up (pipes, a host backend).
 */
export async function hangUpRun(
  run: Pick<ManagedRun, 'hangUp' | 'wait'>,
  waitMs = HANG_UP_WAIT_MS,
): Promise<void> {
  try {
    if (!(await run.hangUp())) return;
  } catch {
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    run.wait().then(
      () => {},
      () => {},
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    }),
  ]);
  clearTimeout(timer);
}

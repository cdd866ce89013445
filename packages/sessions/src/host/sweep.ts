// The sweep a registry runs on every access (there is no timer): ended sessions past their
// TTL or the cap go, live ones past their lifetime expire, a stopped sandbox loses its sessions.
// Ages are read on the monotonic clock (mono-clock.ts): a wall-clock jump expires nothing.
import { monoNow, sweepBook } from '@procmux/registry';
import { sandboxRunning } from '../backends/sandbox.js';
import type { RegistryState } from './registry-state.js';

export async function sweepSessions(r: RegistryState): Promise<void> {
  // An unknown native record is kept: dispose() still has to reap the process behind it.
  const { dropped, expiring } = sweepBook(r, {
    now: monoNow(),
    ttlMs: r.finishedTtlMs,
    maxEnded: r.maxEndedSessions,
    pinned: (s) => s.state === 'unknown' && s.activeRun !== undefined,
  });
  for (const session of dropped) void session.closeOutput();
  await Promise.all(expiring.map((s) => s.expire()));
  if (r.sandbox && !r.sandboxLost && r.sessions.size > 0 && !(await sandboxRunning(r.sandbox)))
    loseSandbox(r);
}

/** The sandbox stopped: every session in it is `unknown` from now on. */
export function loseSandbox(r: RegistryState): void {
  r.sandboxLost = true;
  for (const session of r.sessions.values()) session.markUnknown('the sandbox stopped running');
}

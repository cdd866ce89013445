// The sweep a registry runs on every access (there is no timer): ended sessions past their
// TTL or the cap go, live ones past their lifetime expire, a stopped sandbox loses its sessions.
// Ages are read on the monotonic clock (mono-clock.ts): a wall-clock jump expires nothing.
import { endedToDrop, monoNow } from '@procmux/registry';
import { sandboxRunning } from '../backends/sandbox.js';
import type { LiveSession } from '../session/live-session.js';
import type { RegistryState } from './registry-state.js';

interface Aged {
  id: string;
  /** The session's end on the monotonic clock. */
  endedAt: number | null;
  session: LiveSession;
}

export async function sweepSessions(r: RegistryState): Promise<void> {
  const now = monoNow();
  // endedToDrop reads `endedAt`: it is given each session's end on the monotonic clock.
  const ages: Aged[] = [...r.sessions.values()].map((session) => ({
    id: session.id,
    endedAt: session.endedMono,
    session,
  }));
  // An unknown native record is kept: dispose() still has to reap the process behind it.
  const dropped = endedToDrop(ages, {
    now,
    ttlMs: r.finishedTtlMs,
    maxEnded: r.maxEndedSessions,
    pinned: ({ session: s }) => s.state === 'unknown' && s.activeRun !== undefined,
  });
  for (const { session } of dropped) {
    r.sessions.delete(session.id);
    void session.closeOutput();
  }
  const expiring = [...r.sessions.values()].filter((s) => s.live && now >= s.expiresMono);
  await Promise.all(expiring.map((s) => s.expire()));
  if (r.sandbox && !r.sandboxLost && r.sessions.size > 0 && !(await sandboxRunning(r.sandbox)))
    loseSandbox(r);
}

/** The sandbox stopped: every session in it is `unknown` from now on. */
export function loseSandbox(r: RegistryState): void {
  r.sandboxLost = true;
  for (const session of r.sessions.values()) session.markUnknown('the sandbox stopped running');
}

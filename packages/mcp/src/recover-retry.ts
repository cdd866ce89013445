// A persisted session whose lookup failed at startup (tmux did not answer in time, a server
// exiting under the command: ERR_RECOVERY_UNREACHABLE) still runs; recover() left its record
// as it was. Without another try this server would never list it (a standby's adoption ticks
// retry anyway; a lone server looked once). Tried again with backoff, a bounded number of
// times; what comes back, and what is still missing at the end, is logged once.
import type { ProcessSessions, RecoveryOutcome, RecoveryReport } from '@procmux/sessions';

/** Waits before each later recover(): ~1 minute in all. */
export const RETRY_DELAYS_MS = [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000];

export interface RecoverRetry {
  /** Stops retrying; settles once a recover() in flight (if any) has ended. */
  dispose(): Promise<void>;
}

const unreachable = (report: RecoveryReport) =>
  report.outcomes.filter((o) => o.code === 'ERR_RECOVERY_UNREACHABLE' && !o.written).map((o) => o.id);

/** Retries recover() while the startup report left records it could not look up. */
export function retryUnreachable(
  sessions: Pick<ProcessSessions, 'recover'>,
  first: RecoveryReport,
  log: (line: string) => void,
  delays: readonly number[] = RETRY_DELAYS_MS,
): RecoverRetry {
  let waiting = unreachable(first);
  if (waiting.length === 0) return { dispose: async () => {} };
  const why = first.outcomes.find((o) => o.id === waiting[0])?.reason ?? 'no reason given';
  log(
    `procmux mcp: could not look up ${waiting.length} persisted session(s) yet (${waiting.join(', ')}): ${why}; trying again`,
  );
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;
  // The recover() in flight: the registry must not be disposed under it.
  let inFlight: Promise<void> | undefined;
  const schedule = () => {
    const delay = delays[attempt];
    if (delay === undefined) {
      log(
        `procmux mcp: still could not look up ${waiting.length} persisted session(s) (${waiting.join(', ')}); the next server start tries again`,
      );
      return;
    }
    timer = setTimeout(() => {
      inFlight = retry().finally(() => {
        inFlight = undefined;
      });
    }, delay);
    timer.unref();
  };
  const retry = async () => {
    attempt += 1;
    try {
      const report = await sessions.recover();
      if (disposed) return;
      const before = new Set(waiting);
      const ours = report.outcomes.filter((o) => before.has(o.id));
      const ids = (outcomes: readonly RecoveryOutcome[]) => outcomes.map((o) => o.id);
      const back = ours.filter((o) => o.outcome === 'reattached' || o.outcome === 'attached');
      const lost = ours.filter((o) => o.outcome === 'unknown' && o.written);
      const ended = ours.filter((o) => o.outcome === 'terminal');
      waiting = unreachable(report).filter((id) => before.has(id));
      // Looked up now but refused for another reason (no free session slot: ERR_RECOVERY_LIMIT).
      const refused = ours.filter((o) => !o.written && o.outcome === 'unknown' && !waiting.includes(o.id));
      if (back.length > 0)
        log(
          `procmux mcp: recovered ${back.length} persisted session(s) on a later try (${ids(back).join(', ')})`,
        );
      if (lost.length > 0)
        log(
          `procmux mcp: ${lost.length} persisted session(s) unknown (gone while not looked up): ${ids(lost).join(', ')}`,
        );
      if (ended.length > 0)
        log(
          `procmux mcp: ${ended.length} persisted session(s) had ended meanwhile: ${ids(ended).join(', ')}`,
        );
      if (refused.length > 0)
        log(
          `procmux mcp: ${refused.length} persisted session(s) found but not recovered (${ids(refused).join(', ')}): ` +
            `${refused[0]?.reason ?? refused[0]?.code ?? 'no reason given'}; the next server start tries again`,
        );
    } catch (error) {
      if (disposed) return;
      log(`procmux mcp: looking up persisted sessions again failed: ${(error as Error).message}`);
    }
    if (waiting.length > 0 && !disposed) schedule();
  };
  schedule();
  return {
    async dispose() {
      disposed = true;
      if (timer !== undefined) clearTimeout(timer);
      await inFlight;
    },
  };
}

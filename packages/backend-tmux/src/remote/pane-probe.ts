// A standby adopting a crashed host's sessions re-attaches them all at once: each attach must
// learn its pane's marker, pid and whether it died. Asked one by one that is an exec on the
// connection per session (an SSH channel, a remote shell and a tmux client each: 16 of them
// took 4.4 s on a loaded 2-core machine where one took 0.5 s). The attaches made in the same
// turn share one `list-panes -a` instead.
//
// A lookup that failed (the connection's shell did not answer, tmux said something other than
// "no server") says nothing of the panes: every attach waiting on it rejects with
// ERR_RECOVERY_UNREACHABLE, so recover() leaves their records for its next try. Read as "no
// panes", it had the standby remove a live session's cgroup (killing its tree) and write it
// unknown: one of 16 adopted sessions went missing that way in a loaded CI run.
import { ProcmuxError } from '@procmux/core-types';
import {
  failureWords,
  runPastExit,
  saysEmpty,
  saysGone,
  type TmuxResult,
  type TmuxServer,
} from '../tmux-cli.js';

/** What tmux says of a session's pane; undefined when the session is not on the server. */
export interface PaneState {
  marker: string;
  pid: number | undefined;
  dead: boolean;
}

const FORMAT = '#{session_name} #{@procmux_marker} #{pane_pid} #{pane_dead}';

interface Waiter {
  resolve(state: PaneState | undefined): void;
  reject(error: Error): void;
}

/**
 * A lookup of one session's pane that batches the lookups made in the same turn. Resolves
 * undefined when the session is not on the server (or no server runs); rejects with
 * ERR_RECOVERY_UNREACHABLE when the lookup itself failed.
 */
export function paneProbe(
  server: Pick<TmuxServer, 'run'>,
  where = 'the remote host',
): (session: string) => Promise<PaneState | undefined> {
  let batch: Map<string, Waiter[]> | undefined;

  const flush = async (asked: Map<string, Waiter[]>) => {
    let out: TmuxResult | Error;
    try {
      out = await runPastExit((args) => server.run(args), ['list-panes', '-a', '-F', FORMAT]);
    } catch (error) {
      out = error instanceof Error ? error : new Error(String(error));
    }
    if (out instanceof Error || (out.code !== 0 && !saysGone(out) && !saysEmpty(out))) {
      const why = out instanceof Error ? out.message : failureWords(out);
      const error = new ProcmuxError(
        'ERR_RECOVERY_UNREACHABLE',
        `could not list the tmux panes on ${where} (${why}); try again later`,
        { ...(out instanceof Error ? { cause: out } : {}) },
      );
      for (const waiting of asked.values()) for (const w of waiting) w.reject(error);
      return;
    }
    // No server (it ended, or never ran here) lists nothing: every session is gone.
    const panes = new Map<string, PaneState>();
    if (out.code === 0) {
      for (const line of out.stdout.split('\n')) {
        const [name, marker, pid, dead] = line.split(' ');
        if (name === undefined || dead === undefined || panes.has(name)) continue;
        const n = Number(pid);
        panes.set(name, {
          marker: marker ?? '',
          pid: Number.isSafeInteger(n) && n > 0 ? n : undefined,
          dead: dead === '1',
        });
      }
    }
    for (const [name, waiting] of asked) for (const w of waiting) w.resolve(panes.get(name));
  };

  return (session) =>
    new Promise((resolve, reject) => {
      if (!batch) {
        const asked = new Map<string, Waiter[]>();
        batch = asked;
        // After the current turn: every attach recover() starts together has asked by then.
        setImmediate(() => {
          batch = undefined;
          void flush(asked);
        });
      }
      const waiting = batch.get(session) ?? [];
      waiting.push({ resolve, reject });
      batch.set(session, waiting);
    });
}

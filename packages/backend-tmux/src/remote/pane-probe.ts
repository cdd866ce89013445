// A standby adopting a crashed host's sessions re-attaches them all at once: each attach must
// learn its pane's marker, pid and whether it died. Asked one by one that is an exec on the
// connection per session (an SSH channel, a remote shell and a tmux client each: 16 of them
// took 4.4 s on a loaded 2-core machine where one took 0.5 s). The attaches made in the same
// turn share one `list-panes -a` instead.
import type { TmuxServer } from '../tmux-cli.js';

/** What tmux says of a session's pane; undefined when the session is not on the server. */
export interface PaneState {
  marker: string;
  pid: number | undefined;
  dead: boolean;
}

const FORMAT = '#{session_name} #{@procmux_marker} #{pane_pid} #{pane_dead}';

/** A lookup of one session's pane that batches the lookups made in the same turn. */
export function paneProbe(
  server: Pick<TmuxServer, 'run'>,
): (session: string) => Promise<PaneState | undefined> {
  let batch: Map<string, ((state: PaneState | undefined) => void)[]> | undefined;

  const flush = async (asked: Map<string, ((state: PaneState | undefined) => void)[]>) => {
    const out = await server.run(['list-panes', '-a', '-F', FORMAT]).catch(() => undefined);
    // No server (it ended, or never ran here) lists nothing: every session is gone.
    const panes = new Map<string, PaneState>();
    if (out?.code === 0) {
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
    for (const [name, waiting] of asked) for (const resolve of waiting) resolve(panes.get(name));
  };

  return (session) =>
    new Promise((resolve) => {
      if (!batch) {
        const asked = new Map<string, ((state: PaneState | undefined) => void)[]>();
        batch = asked;
        // After the current turn: every attach recover() starts together has asked by then.
        setImmediate(() => {
          batch = undefined;
          void flush(asked);
        });
      }
      const waiting = batch.get(session) ?? [];
      waiting.push(resolve);
      batch.set(session, waiting);
    });
}

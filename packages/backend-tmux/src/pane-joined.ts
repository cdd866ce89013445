// A pane joins its cgroup as the first thing its start script does, but tmux answers a start
// as soon as it forked the pane: under load the script may not have run yet. A start reported
// then is a session a host may crash on and another host re-attach while its cgroup is still
// empty; that host finds no member, takes the pane for one without a cgroup (the marker sweep)
// and never ends or removes the cgroup the pane joins a moment later. So a start is reported
// only once the pane is in its cgroup, or has already ended (a failed join ends it, exit 125).
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the wait reads: the cgroup's members and whether a process has ended. */
export interface JoinEffects {
  members(): number[];
  /** Gone, or dead and not yet reaped (a pane that died before its join may stay a zombie). */
  ended(pid: number): boolean;
  sleep(ms: number): Promise<unknown>;
}

const POLL_MS = 2;

/** Resolves once `pid` is a member of the cgroup, or has ended: 'joined' or 'ended'. */
export async function untilPaneJoined(pid: number, effects: JoinEffects): Promise<'joined' | 'ended'> {
  for (;;) {
    if (effects.members().includes(pid)) return 'joined';
    if (effects.ended(pid)) return 'ended';
    await effects.sleep(POLL_MS);
  }
}

/** This host's answer to ended(): /proc/<pid>/stat is gone, or says zombie. */
export function processEnded(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return true;
  }
  // The state follows the command name, which is in parentheses and may itself hold ") ".
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

/** The effects for a pane on this host, in `cgroup`. */
export function localJoinEffects(cgroup: { members(): number[] }): JoinEffects {
  return { members: () => cgroup.members(), ended: processEnded, sleep };
}

/**
 * The same wait on another machine, as one sh script (one round trip): exits once `pid` is
 * listed in the cgroup.procs file `procsWord` (quoted for sh), or its /proc entry is gone or
 * a zombie's.
 */
export function paneJoinedScript(pid: number, procsWord: string): string {
  return [
    `p=${pid}`,
    `while ! grep -qx "$p" ${procsWord} 2>/dev/null; do`,
    '  s=$(cat /proc/$p/stat 2>/dev/null) || exit 0',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: sh's ${s##*) }: the fields after the name
    '  case ${s##*) } in Z*) exit 0 ;; esac',
    '  sleep 0.01',
    'done',
  ].join('\n');
}

// The one tmux command line that starts a session without losing a byte. tmux runs a client's
// command list in one go, before its event loop reads any pane: the log writer is attached
// before the first byte is read, so the pane need not wait (a `tmux wait-for` client in the
// pane cost a process start per session; separate tmux calls lost the first line 3 in 10).
import { TREE_MARKER_ENV } from '@procmux/core-types';
import type { PtyStartRequest } from '@procmux/sessions';
import type { Layout, SessionFiles } from './layout.js';
import { CG_KILL } from './remote/cgroup-sh.js';
import type { TmuxBinary } from './tmux-cli.js';

export interface StartSpec {
  binary: TmuxBinary;
  layout: Layout;
  name: string;
  marker: string;
  /** lifetime 'host': the pane-died hook also ends the session when its host is gone. */
  host: boolean;
  request: Pick<PtyStartRequest, 'file' | 'args' | 'cwd' | 'columns' | 'rows' | 'privateDir'>;
  files: SessionFiles;
  /** The pane's cgroup directories (membership first): ended and removed by the pane-died hook. */
  cgroup?: readonly string[];
}

// $1 is the start script; the rest is the command. The script runs the command under
// `env -i` with exactly the session's environment (layout.ts envScript).
const WRAPPER = 'e=$1; shift; . "$e"';

/** argv for TmuxServer.run: new-session, options, hook, log writer, pid. */
export function startCommands(spec: StartSpec): string[] {
  const { binary, layout, name, marker, host, request, files } = spec;
  const cgroup = spec.cgroup ?? [];
  // Paths are checked to need no quoting (layoutOf); the hook is parsed by tmux, then sh.
  // The hook writes the status, then ends the tmux session itself: that closes the log
  // writer's pipe at once (tmux refuses pipe-pane on a dead pane), so the writer's .eof mark
  // follows within milliseconds instead of after the host noticed the status and asked tmux
  // (a tmux client round trip on the way to wait()). Every byte is in the pipe by then: tmux
  // marks a pane dead only once the pipe's buffer is empty. With no status (never seen on 3.3,
  // where the hook runs only once the process was reaped) the pane stays for the host to ask.
  const kill = `exec ${binary.path} -S ${layout.socket} kill-session -t ${name}`;
  const ending = host
    ? `if [ $s != : ] || ! kill -0 ${process.pid} 2>/dev/null; then ${kill}; fi`
    : `[ $s = : ] || ${kill}`;
  // An OS sandbox's private directory goes with the pane, whether or not a host is there to
  // see it end; before the exit file, so a host that saw the exit finds it gone.
  const remove = request.privateDir === undefined ? '' : `rm -rf ${request.privateDir}; `;
  // A pane in a cgroup: once its process ended, what it left there (an escapee) is killed and
  // the cgroup removed here too, so no host need be there (rmdir waits out the teardown).
  // cg_kill (remote/cgroup-sh.ts) also takes a v1-only membership (freeze, SIGKILL, thaw).
  const release =
    cgroup.length === 0
      ? ''
      : `[ $s = : ] || { ${CG_KILL}; cg_kill ${cgroup[0]}; for d in ${[...cgroup].reverse().join(' ')}; do i=0; until rmdir $d 2>/dev/null || [ ! -d $d ] || [ $i -ge 50 ]; do i=$((i+1)); sleep 0.1; done; done; }; `;
  const hook = `${remove}s=#{pane_dead_status}:#{pane_dead_signal}; echo $s > ${files.exit}; ${release}${ending}`;
  // The writer carries no marker: a tree kill of the session must not take its log with it
  // (it ends by itself when tmux closes the pipe, after the last byte). A cat that fails (a
  // full disk, a quota, SIGXFSZ past a file size limit) leaves the failed mark first: the host
  // then ends the session with that error rather than lose it while its program runs on.
  // It records its pid first (the exec keeps it): a follower over SSH ends when it is gone
  // (tail --pid) instead of polling for the end mark with a fork of sleep 20 times a second.
  const writer = `echo $$ > ${files.writer}; exec sh -c "cat >> ${files.log} || : > ${files.failed}; : > ${files.eof}"`;
  const t = ['-t', name];
  return [
    'set-option',
    '-g',
    'default-shell',
    '/bin/sh',
    ';',
    // The pane's own process carries the session's marker from its first instruction.
    'new-session',
    '-e',
    `${TREE_MARKER_ENV}=${marker}`,
    '-d',
    '-s',
    name,
    '-x',
    String(request.columns),
    '-y',
    String(request.rows),
    '-c',
    request.cwd,
    '--',
    '/bin/sh',
    '-c',
    WRAPPER,
    'procmux-tmux',
    files.env,
    ...[request.file, ...request.args].map(escapeSeparator),
    ';',
    // Only the pane's process: what tmux starts for the session later (the pane-died hook and
    // its kill-session, the log writer) must not look like the session to a check by marker
    // once its end is reported.
    'set-environment',
    ...t,
    '-u',
    TREE_MARKER_ENV,
    ';',
    'set-option',
    ...t,
    'remain-on-exit',
    'on',
    ';',
    'set-option',
    ...t,
    '@procmux_marker',
    marker,
    ';',
    ...(cgroup.length === 0 ? [] : ['set-option', ...t, '@procmux_cgroup', cgroup.join(' '), ';']),
    'set-option',
    ...t,
    '@procmux_lifetime',
    host ? 'host' : 'detached',
    ';',
    'set-hook',
    ...t,
    'pane-died',
    `run-shell -b '${hook}'`,
    ';',
    'pipe-pane',
    '-O',
    ...t,
    writer,
    ';',
    'display-message',
    '-p',
    ...t,
    '#{pane_pid}',
  ];
}

/** tmux splits its argv at a word ending in ';' unless escaped as '\\;'. */
/** argv for TmuxServer.run: the session's window (and so its pane) to `columns` x `rows`. */
export function resizeCommand(name: string, columns: number, rows: number): string[] {
  return ['resize-window', '-t', name, '-x', String(columns), '-y', String(rows)];
}

export function escapeSeparator(word: string): string {
  return word.endsWith(';') ? `${word.slice(0, -1)}\\;` : word;
}

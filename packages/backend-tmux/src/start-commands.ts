// The one tmux command line that starts a session without losing a byte: the pane waits on a
// channel while the session is configured and its log writer attached, then runs the command.
import { TREE_MARKER_ENV } from '@procmux/core-types';
import type { PtyStartRequest } from '@procmux/sessions';
import type { Layout, SessionFiles } from './layout.js';
import type { TmuxBinary } from './tmux-cli.js';

export interface StartSpec {
  binary: TmuxBinary;
  layout: Layout;
  name: string;
  marker: string;
  /** lifetime 'host': the pane-died hook also ends the session when its host is gone. */
  host: boolean;
  request: Pick<PtyStartRequest, 'file' | 'args' | 'cwd' | 'columns' | 'rows'>;
  files: SessionFiles;
}

// $1 tmux, $2 socket, $3 channel, $4 start script; the rest is the command. The script
// runs the command under `env -i` with exactly the session's environment (layout.ts envScript).
const WRAPPER = 't=$1 s=$2 c=$3 e=$4; shift 4; "$t" -S "$s" wait-for "$c" || exit 125; . "$e"';

/** argv for TmuxServer.run: new-session, options, hook, log writer, pid, go. */
export function startCommands(spec: StartSpec): string[] {
  const { binary, layout, name, marker, host, request, files } = spec;
  const channel = `${name}-go`;
  // Paths are checked to need no quoting (layoutOf); the hook is parsed by tmux, then sh.
  let hook = `echo #{pane_dead_status}:#{pane_dead_signal} > ${files.exit}`;
  if (host)
    hook += `; kill -0 ${process.pid} 2>/dev/null || ${binary.path} -S ${layout.socket} kill-session -t ${name}`;
  // The writer carries no marker: a tree kill of the session must not take its log with it
  // (it ends by itself when tmux closes the pipe, after the last byte).
  const writer = `exec sh -c "cat >> ${files.log}; : > ${files.eof}"`;
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
    binary.path,
    layout.socket,
    channel,
    files.env,
    ...[request.file, ...request.args].map(escapeSeparator),
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
    ';',
    'wait-for',
    '-S',
    channel,
  ];
}

/** tmux splits its argv at a word ending in ';' unless escaped as '\\;'. */
export function escapeSeparator(word: string): string {
  return word.endsWith(';') ? `${word.slice(0, -1)}\\;` : word;
}

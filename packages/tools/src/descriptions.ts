// Tool descriptions as a model reads them: when to use which mode or action, in a few lines.
import { DEFAULT_TOOL_OPTIONS, MAX_WAIT_MS } from './options.js';
import { type OneShotDefaults, seconds } from './schemas.js';

/** The exec description, stating the one-shot timeouts in force. */
export function execDescription(defaults: OneShotDefaults): string {
  return [
    'Run a shell command in the workspace.',
    '',
    "mode 'one_shot' (default): runs to completion and returns its output and exit code. No one answers its",
    'input: a command that stops at a prompt is stopped and the prompt reported (rerun it as a session).',
    'Pagers print straight through (PAGER=cat), git never prompts for credentials or an editor, and the',
    `process tree is killed after ${seconds(defaults.oneShotTimeoutMs)}, or after ${seconds(defaults.oneShotNoOutputTimeoutMs)} without output (change with timeout_ms /`,
    'no_output_timeout_ms). Pass yield_ms to get a session_id back instead of waiting when it takes longer.',
    "mode 'session': an interactive program in a terminal (python3 -i, node, psql, vim, top). Returns a",
    'session_id and the first screen; drive it with the process tool (paste + submit, send_keys, poll).',
    "mode 'daemon': a long-running program on pipes (dev servers, watchers, long scans). Returns a",
    'session_id and its first output; read it with process poll / wait_for / log, stop it with kill.',
    'session and daemon have no timeouts: kill them when done.',
    '',
    'Long output is cut in the middle (head, tail and error lines kept); the note says how to page it with',
    'process action=log. Every result ends with the process state, e.g. "Process exited with code 0."',
  ].join('\n');
}

/** The exec description with the default one-shot timeouts. */
export const EXEC_DESCRIPTION = execDescription(DEFAULT_TOOL_OPTIONS);

export const PROCESS_DESCRIPTION = [
  'Watch and drive processes started by exec (mode session or daemon, or a one_shot given yield_ms).',
  '',
  'list: your sessions with their state.',
  `poll {session_id, timeout?}: new output since the last read; waits up to timeout ms (max ${MAX_WAIT_MS}) and`,
  '  returns as soon as output or the exit arrives.',
  'wait_for {session_id, pattern?, fail_pattern?, input: true?, exit: true?, idle_ms?, port?, timeout?}: wait',
  '  once instead of polling in a loop, for whichever comes first: a regular expression in new output, the',
  '  failure pattern (stops early), the program waiting for input, the exit, idle_ms of quiet, or a loopback',
  '  port accepting connections (up to 30 minutes). Says which fired. Returns the output seen meanwhile.',
  "  New output is what no earlier call returned (exec's first screen and earlier polls do not count again);",
  '  the line the cursor is on counts whole, and a full-screen program (vim, less) counts its screen as it is now.',
  'log {session_id, offset?, limit?}: the history by lines (last 200 by default; offset 0 is the first line).',
  'paste {session_id, text}: type text (multi-line is fine); it is not submitted. submit {session_id}:',
  '  press Enter. Use paste + submit to run a line in a REPL or shell, or a command in vim (:wq).',
  'send_keys {session_id, keys}: keys such as ["C-c"] to interrupt, ["C-d"] for end of input, ["Up"],',
  '  ["Tab"], ["Escape"], ["q"].',
  'write {session_id, data}: raw text to stdin as is (for daemons on pipes; add "\\n" to end a line).',
  'close_stdin {session_id}: end of input for a program reading stdin on pipes.',
  'kill {session_id}: stop the process and everything it started.',
  'record {session_id, path?}: save the output so far as an asciicast v2 file in the workspace (asciinema',
  '  plays it); returns the path.',
  'A person watching in the procmux view may take control of a session: your input to it is then refused',
  '  with ERR_PROCESS_STATE until they release it; keep polling to see what they do.',
  '',
  'Results end with the process state: "Process still running.", "Process exited with code 0.",',
  '"Process killed by SIGTERM."',
].join('\n');

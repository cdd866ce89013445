// The exec and process parameters, each defined once (see param-spec.ts): the JSON Schema a
// model reads, the TypeScript types and the parsers all come from these two tables.
import { DAY_MS, DEFAULT_TOOL_OPTIONS, MAX_WAIT_MS, type ResolvedToolOptions } from './options.js';
import {
  aliasParam,
  booleanParam,
  enumParam,
  envParam,
  integerParam,
  numberParam,
  type ParamsOf,
  specSchema,
  stringListParam,
  stringParam,
  trueParam,
} from './param-spec.js';

/** A duration as the descriptions say it: "120 s", or "1500 ms" where seconds are not whole. */
export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The one-shot defaults the exec schema states (the resolved options of the tools). */
export type OneShotDefaults = Pick<ResolvedToolOptions, 'oneShotTimeoutMs' | 'oneShotNoOutputTimeoutMs'>;

export const EXEC_MODES = ['one_shot', 'session', 'daemon'] as const;
/** Longest cwd accepted (Linux's PATH_MAX). */
export const MAX_PATH_CHARS = 4_096;

/** The exec parameters, stating the one-shot timeouts in force. */
export function execSpec(defaults: OneShotDefaults) {
  return {
    command: stringParam({
      required: true,
      nonEmpty: true,
      noNul: 'a command line',
      description:
        'Shell command line, run with bash -c (sh where there is no bash; cmd or PowerShell on Windows).',
    }),
    mode: enumParam(EXEC_MODES, {
      default: 'one_shot',
      description:
        'one_shot: run to completion and return the output and exit code (no one answers its input, pagers and prompts off, ' +
        `${seconds(defaults.oneShotTimeoutMs)} overall and ${seconds(defaults.oneShotNoOutputTimeoutMs)} ` +
        'no-output timeouts). session: interactive program in a terminal (REPLs, ' +
        'full-screen programs), returns a session_id and the first screen. daemon: long-running program on ' +
        'pipes (servers, watchers, scans), returns a session_id and its first output.',
    }),
    cwd: stringParam({
      maxChars: MAX_PATH_CHARS,
      noNul: 'a path',
      description:
        'Working directory, relative to the workspace root (or absolute inside it). Default: the root.',
    }),
    env: envParam({ description: 'Extra environment variables, merged over the inherited ones.' }),
    timeout_ms: integerParam(1, DAY_MS, {
      description: `Kill the process tree after this many ms. Default ${defaults.oneShotTimeoutMs} for one_shot, none otherwise.`,
    }),
    no_output_timeout_ms: integerParam(1, DAY_MS, {
      description: `Kill it after this many ms without output. Default ${defaults.oneShotNoOutputTimeoutMs} for one_shot, none otherwise.`,
    }),
    yield_ms: integerParam(0, MAX_WAIT_MS, {
      description:
        'one_shot only: if the command is still running after this many ms, return its session_id and the ' +
        'output so far instead of waiting; it goes on in the background.',
    }),
    persist: booleanParam({
      description:
        'session and daemon only: keep the process running when this server stops or restarts (a persistent ' +
        'terminal, tmux on procmux mcp); the next server lists it again with the output printed meanwhile. ' +
        'A persisted daemon runs in a terminal too. Default false.',
    }),
    timeoutMs: aliasParam('timeout_ms', 'integer'),
    noOutputTimeoutMs: aliasParam('no_output_timeout_ms', 'integer'),
    yieldMs: aliasParam('yield_ms', 'integer'),
  };
}

export type ExecSpec = ReturnType<typeof execSpec>;

/** JSON Schema of the exec tool's parameters, stating the one-shot timeouts in force. */
export function execParameters(defaults: OneShotDefaults) {
  return specSchema(execSpec(defaults));
}

/** The exec schema with the default one-shot timeouts. */
export const EXEC_PARAMETERS = execParameters(DEFAULT_TOOL_OPTIONS);

/** How long wait_for waits when the call does not say. */
export const DEFAULT_WAIT_FOR_MS = 30_000;
/** Longest wait_for (and idle_ms): 30 minutes (an MCP client keeps the call alive through progress). */
export const MAX_WAIT_FOR_MS = 30 * 60 * 1000;
/** Most lines one log call may ask for (and so the largest page a footer suggests). */
export const MAX_LOG_LIMIT = 100_000;

export const PROCESS_ACTIONS = [
  'list',
  'poll',
  'log',
  'write',
  'paste',
  'submit',
  'send_keys',
  'close_stdin',
  'kill',
  'wait_for',
  'record',
] as const;

/** Longest key name ("C-M-S-PageDown" is 14): longer is surely text, which paste types. */
export const MAX_KEY_CHARS = 32;

/** The process parameters. */
export const PROCESS_SPEC = {
  action: enumParam(PROCESS_ACTIONS, {
    required: true,
    description: 'What to do. Every action but list needs session_id.',
  }),
  session_id: stringParam({ description: 'The id exec returned.' }),
  timeout: numberParam({
    description:
      `poll: wait up to this many ms for new output (0-${MAX_WAIT_MS}, default 0; values outside are clamped). ` +
      `wait_for: give up after this many ms (1-${MAX_WAIT_FOR_MS}, i.e. up to 30 minutes; default ${DEFAULT_WAIT_FOR_MS}).`,
  }),
  offset: integerParam(0, Number.MAX_SAFE_INTEGER, {
    description:
      'log: first line to return, 0-based. Without offset, log returns the last `limit` lines (200 by default).',
  }),
  limit: integerParam(1, MAX_LOG_LIMIT, {
    description:
      'log: how many lines (default 200): from offset, or the last ones without offset. A page too long for the ' +
      'output budget is shortened to whole lines; its footer gives the exact next call.',
  }),
  data: stringParam({
    description: 'write: raw text for stdin, sent as is (include "\\n" to end a line on a pipe).',
  }),
  text: stringParam({
    description: 'paste: text to type into the session, not submitted (then use submit).',
  }),
  bracketed: booleanParam({
    description: 'paste: force bracketed paste on or off (default: whatever the program asked for).',
  }),
  keys: stringListParam(MAX_KEY_CHARS, {
    description:
      'send_keys: keys in order, e.g. ["C-c"], ["Up", "Enter"], ["Escape", "q"]. Named keys Enter, Tab, ' +
      'Escape, Space, Backspace, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12, ' +
      'BTab; a single character is itself; prefixes C-, M-, S- (or ^C). Type text with paste instead.',
  }),
  pattern: stringParam({
    description:
      'wait_for: regular expression (multiline; RE2 syntax: no backreferences or lookaround) to wait for in new output.',
  }),
  fail_pattern: stringParam({
    description:
      'wait_for: regular expression (RE2) that means failure: stop early and say so when it appears in new output.',
  }),
  idle_ms: integerParam(1, MAX_WAIT_FOR_MS, {
    description: 'wait_for: return once the output has been quiet this many ms.',
  }),
  sessionId: aliasParam('session_id', 'string'),
  idleMs: aliasParam('idle_ms', 'integer'),
  exit: trueParam({
    means: 'wait for the process to end',
    description: 'wait_for: wait for the process to end.',
  }),
  input: trueParam({
    means: 'wait until the program waits for input',
    description: 'wait_for: return once the program waits for input (a prompt, a password question).',
  }),
  port: integerParam(1, 65_535, {
    description:
      "wait_for: return once this TCP port on loopback accepts connections (a server is up); a sandboxed session's port, once it listens in the sandbox's own network.",
  }),
  path: stringParam({
    nonEmpty: true,
    description:
      'record: file to write the session as an asciicast v2 recording (output with its timing, never input), ' +
      'relative to the workspace root and inside it. Default: <session_id>.cast at the root.',
  }),
};

/** JSON Schema of the process tool's parameters. */
export const PROCESS_PARAMETERS = specSchema(PROCESS_SPEC);

/** The exec tool's parameters, as the JSON Schema describes them. */
export type ExecParams = ParamsOf<ExecSpec>;
/** The process tool's parameters, as the JSON Schema describes them. */
export type ProcessParams = ParamsOf<typeof PROCESS_SPEC>;

import { DAY_MS, DEFAULT_TOOL_OPTIONS, MAX_WAIT_MS, type ResolvedToolOptions } from './options.js';
import { PERSIST_PARAMETER } from './persist.js';
import type { JsonSchema } from './types.js';

/** A duration as the descriptions say it: "120 s", or "1500 ms" where seconds are not whole. */
export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The one-shot defaults the exec schema states (the resolved options of the tools). */
export type OneShotDefaults = Pick<ResolvedToolOptions, 'oneShotTimeoutMs' | 'oneShotNoOutputTimeoutMs'>;

/** JSON Schema of the exec tool's parameters, stating the one-shot timeouts in force. */
export function execParameters(defaults: OneShotDefaults) {
  return {
    type: 'object',
    properties: {
      command: {
        type: 'string',
        minLength: 1,
        description:
          'Shell command line, run with bash -c (sh where there is no bash; cmd or PowerShell on Windows).',
      },
      mode: {
        type: 'string',
        enum: ['one_shot', 'session', 'daemon'],
        default: 'one_shot',
        description:
          'one_shot: run to completion and return the output and exit code (no one answers its input, pagers and prompts off, ' +
          `${seconds(defaults.oneShotTimeoutMs)} overall and ${seconds(defaults.oneShotNoOutputTimeoutMs)} ` +
          'no-output timeouts). session: interactive program in a terminal (REPLs, ' +
          'full-screen programs), returns a session_id and the first screen. daemon: long-running program on ' +
          'pipes (servers, watchers, scans), returns a session_id and its first output.',
      },
      cwd: {
        type: 'string',
        description:
          'Working directory, relative to the workspace root (or absolute inside it). Default: the root.',
      },
      env: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'Extra environment variables, merged over the inherited ones.',
      },
      timeout_ms: {
        type: 'integer',
        minimum: 1,
        maximum: DAY_MS,
        description: `Kill the process tree after this many ms. Default ${defaults.oneShotTimeoutMs} for one_shot, none otherwise.`,
      },
      no_output_timeout_ms: {
        type: 'integer',
        minimum: 1,
        maximum: DAY_MS,
        description: `Kill it after this many ms without output. Default ${defaults.oneShotNoOutputTimeoutMs} for one_shot, none otherwise.`,
      },
      yield_ms: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_WAIT_MS,
        description:
          'one_shot only: if the command is still running after this many ms, return its session_id and the ' +
          'output so far instead of waiting; it goes on in the background.',
      },
      persist: PERSIST_PARAMETER,
      timeoutMs: {
        type: 'integer',
        description: 'Old name of timeout_ms, accepted until the next major release.',
      },
      noOutputTimeoutMs: {
        type: 'integer',
        description: 'Old name of no_output_timeout_ms, accepted until the next major release.',
      },
      yieldMs: {
        type: 'integer',
        description: 'Old name of yield_ms, accepted until the next major release.',
      },
    },
    required: ['command'],
    additionalProperties: false,
  } as const satisfies JsonSchema;
}

/** The exec schema with the default one-shot timeouts. */
export const EXEC_PARAMETERS = execParameters(DEFAULT_TOOL_OPTIONS);

/** camelCase names the exec tool still accepts (one release), and the snake_case name each means. */
export const EXEC_ALIASES: Readonly<Record<string, string>> = {
  timeoutMs: 'timeout_ms',
  noOutputTimeoutMs: 'no_output_timeout_ms',
  yieldMs: 'yield_ms',
};

/** camelCase names the process tool still accepts (one release). */
export const PROCESS_ALIASES: Readonly<Record<string, string>> = {
  sessionId: 'session_id',
  idleMs: 'idle_ms',
};

/** How long wait_for waits when the call does not say. */
export const DEFAULT_WAIT_FOR_MS = 30_000;
/** Longest wait_for (and idle_ms): 30 minutes (an MCP client keeps the call alive through progress). */
export const MAX_WAIT_FOR_MS = 30 * 60 * 1000;

/** JSON Schema of the process tool's parameters. */
export const PROCESS_PARAMETERS = {
  type: 'object',
  properties: {
    action: {
      type: 'string',
      enum: [
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
      ],
      description: 'What to do. Every action but list needs session_id.',
    },
    session_id: { type: 'string', description: 'The id exec returned.' },
    timeout: {
      type: 'number',
      description:
        `poll: wait up to this many ms for new output (0-${MAX_WAIT_MS}, default 0; values outside are clamped). ` +
        `wait_for: give up after this many ms (1-${MAX_WAIT_FOR_MS}, i.e. up to 30 minutes; default ${DEFAULT_WAIT_FOR_MS}).`,
    },
    offset: {
      type: 'integer',
      minimum: 0,
      description:
        'log: first line to return, 0-based. Without offset, log returns the last `limit` lines (200 by default).',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: 100_000,
      description:
        'log: how many lines (default 200): from offset, or the last ones without offset. A page too long for the ' +
        'output budget is shortened to whole lines; its footer gives the exact next call.',
    },
    data: {
      type: 'string',
      description: 'write: raw text for stdin, sent as is (include "\\n" to end a line on a pipe).',
    },
    text: {
      type: 'string',
      description: 'paste: text to type into the session, not submitted (then use submit).',
    },
    bracketed: {
      type: 'boolean',
      description: 'paste: force bracketed paste on or off (default: whatever the program asked for).',
    },
    keys: {
      anyOf: [
        { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1 },
        { type: 'string', minLength: 1 },
      ],
      description:
        'send_keys: keys in order, e.g. ["C-c"], ["Up", "Enter"], ["Escape", "q"]. Named keys Enter, Tab, ' +
        'Escape, Space, Backspace, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12, ' +
        'BTab; a single character is itself; prefixes C-, M-, S- (or ^C). Type text with paste instead.',
    },
    pattern: {
      type: 'string',
      description:
        'wait_for: regular expression (multiline; RE2 syntax: no backreferences or lookaround) to wait for in new output.',
    },
    idle_ms: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_WAIT_FOR_MS,
      description: 'wait_for: return once the output has been quiet this many ms.',
    },
    sessionId: {
      type: 'string',
      description: 'Old name of session_id, accepted until the next major release.',
    },
    idleMs: { type: 'integer', description: 'Old name of idle_ms, accepted until the next major release.' },
    exit: { type: 'boolean', const: true, description: 'wait_for: wait for the process to end.' },
    input: {
      type: 'boolean',
      const: true,
      description: 'wait_for: return once the program waits for input (a prompt, a password question).',
    },
    port: {
      type: 'integer',
      minimum: 1,
      maximum: 65_535,
      description: 'wait_for: return once this TCP port on loopback accepts connections (a server is up).',
    },
    fail_pattern: {
      type: 'string',
      description:
        'wait_for: regular expression (RE2) that means failure: stop early and say so when it appears in new output.',
    },
    path: {
      type: 'string',
      minLength: 1,
      description:
        'record: file to write the session as an asciicast v2 recording (output with its timing, never input), ' +
        'relative to the workspace root and inside it. Default: <session_id>.cast at the root.',
    },
  },
  required: ['action'],
  additionalProperties: false,
} as const satisfies JsonSchema;

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SESSIONS_LIMIT } from '@procmux/core-types';
import { ENDED_SESSIONS_LIMIT } from '@procmux/sessions';

/** What the command line asks for. */
export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'demo' }
  | {
      kind: 'mcp';
      cwd: string;
      maxSessions: number | undefined;
      maxEndedSessions: number | undefined;
      pty: boolean;
    };

/** A command line that cannot run; the message says what is allowed. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

/**
 * Reads `procmux` arguments. `--cwd` is resolved against `cwd`; a bad option, a missing
 * command or an out-of-range value is a CliUsageError, never a silent default.
 */
export function parseCliArgs(argv: readonly string[], cwd: string): CliCommand {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const [command, ...extra] = positionals;
  if (command === undefined)
    throw new CliUsageError('a command is required: mcp or demo (see procmux --help)');
  if (extra.length > 0) throw new CliUsageError(`unexpected argument "${extra[0]}"`);
  const mcpOnly = (['cwd', 'max-sessions', 'max-ended-sessions', 'allow-pty', 'no-pty'] as const).filter(
    (name) => values[name] !== undefined,
  );
  if (command === 'demo') {
    if (mcpOnly.length > 0) throw new CliUsageError(`--${mcpOnly[0]} applies to procmux mcp, not demo`);
    return { kind: 'demo' };
  }
  if (command !== 'mcp') throw new CliUsageError(`unknown command "${command}"; use mcp or demo`);
  if (values['allow-pty'] && values['no-pty'])
    throw new CliUsageError('--allow-pty and --no-pty contradict each other');
  return {
    kind: 'mcp',
    cwd: resolve(cwd, values.cwd ?? '.'),
    maxSessions: integer('--max-sessions', values['max-sessions'], SESSIONS_LIMIT.hard),
    maxEndedSessions: integer(
      '--max-ended-sessions',
      values['max-ended-sessions'],
      ENDED_SESSIONS_LIMIT.hard,
    ),
    pty: values['no-pty'] !== true,
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
      cwd: { type: 'string' },
      'max-sessions': { type: 'string' },
      'max-ended-sessions': { type: 'string' },
      'allow-pty': { type: 'boolean' },
      'no-pty': { type: 'boolean' },
    },
  });
}

function integer(option: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max) {
    throw new CliUsageError(`${option} must be an integer from 1 to ${max} (got "${value}")`);
  }
  return n;
}

// Option checks shared by ChildAdapter.create and ProcessSupervisor.spawn. Each failure is an
// ERR_INVALID_OPTION that names the option and says what is allowed.
import { describe, ProcmuxError, type SpawnTarget } from '@procmux/core-types';

export function invalid(option: string, allowed: string, value?: unknown, showValue = true): ProcmuxError {
  const got = showValue ? ` (got ${describe(value)})` : '';
  return new ProcmuxError('ERR_INVALID_OPTION', `${option} must be ${allowed}${got}`, {
    details: { option },
  });
}

export function checkOneOf<T extends string>(
  option: string,
  value: unknown,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw invalid(option, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
}

export function checkString(option: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.length > 0 && !value.includes('\0')) return value;
  throw invalid(option, 'a non-empty string without NUL characters', value);
}

export function checkFunction<T>(option: string, value: unknown): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'function') return value as T;
  throw invalid(option, 'a function', value);
}

/**
 * Exactly one of `command` (through a shell) and `file` (no shell); `args` only with `file`,
 * `shell` only with `command`. Values of a command are not echoed: they may hold secrets.
 */
export function checkTarget(target: SpawnTarget): SpawnTarget {
  const { command, file, args, shell } = target;
  if ((command === undefined) === (file === undefined)) {
    throw invalid(
      'command or file',
      'given, exactly one of the two (command runs in a shell, file does not)',
    );
  }
  if (command !== undefined && (typeof command !== 'string' || command.trim().length === 0)) {
    throw invalid('command', 'a non-empty string', typeof command === 'string' ? '' : command);
  }
  if (command?.includes('\0')) throw invalid('command', 'free of NUL characters');
  checkString('file', file);
  if (args !== undefined) {
    if (file === undefined) throw invalid('args', 'given only with file (a command is one string)');
    if (!Array.isArray(args) || args.some((arg) => typeof arg !== 'string' || arg.includes('\0'))) {
      throw invalid('args', 'an array of strings without NUL characters');
    }
  }
  if (shell !== undefined) {
    if (command === undefined) throw invalid('shell', 'given only with command (file runs without a shell)');
    checkString('shell', shell);
  }
  const out: SpawnTarget = {};
  if (command !== undefined) out.command = command;
  if (file !== undefined) out.file = file;
  if (args !== undefined) out.args = [...args];
  if (shell !== undefined) out.shell = shell;
  return out;
}

/** An environment: string values (undefined entries are skipped). Values are never shown. */
export function checkEnv(value: unknown): Readonly<Record<string, string | undefined>> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('env', 'an object of string values', value);
  }
  for (const [key, entry] of Object.entries(value)) {
    if (key === '' || key.includes('=') || key.includes('\0')) {
      throw invalid('env', "an object whose names are non-empty, without '=' or NUL", key);
    }
    if (entry !== undefined && (typeof entry !== 'string' || entry.includes('\0'))) {
      throw invalid(`env.${key}`, 'a string without NUL characters, or undefined', undefined, false);
    }
  }
  return value as Record<string, string | undefined>;
}

export function checkInput(value: unknown): string | Uint8Array | undefined {
  if (value === undefined || typeof value === 'string' || value instanceof Uint8Array) return value;
  throw invalid('input', 'a string or a Uint8Array', value);
}

/** An optional integer in [min, max]; undefined stays undefined (the feature is off). */
export function checkInteger(option: string, value: unknown, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  throw invalid(option, `an integer from ${min} to ${max}`, value);
}

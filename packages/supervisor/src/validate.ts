// The supervisor's own checks; everything generic (integers, one-of, strings, env, the target)
// is the core-types toolkit, so a refusal reads and carries details the same as everywhere.
import { checkSpawnTarget, invalidOption, type SpawnTarget } from '@procmux/core-types';

/**
 * The target as the supervisor keeps it: only the keys given, `args` copied. See
 * checkSpawnTarget for the rules.
 */
export function checkTarget(target: SpawnTarget): SpawnTarget {
  const checked = checkSpawnTarget(target);
  if ('command' in checked) {
    return checked.shell === undefined
      ? { command: checked.command }
      : { command: checked.command, shell: checked.shell };
  }
  return target.args === undefined ? { file: checked.file } : { file: checked.file, args: checked.args };
}

/** What `input` takes: text or bytes, or nothing. */
export function checkInput(value: unknown): string | Uint8Array | undefined {
  if (value === undefined || typeof value === 'string' || value instanceof Uint8Array) return value;
  throw invalidOption('input', 'a string or a Uint8Array', { value });
}

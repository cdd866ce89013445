// What to run, checked the one way every adapter and the supervisor read it.
import { exactlyOne, invalidOption, nonEmptyString, stringArrayOption } from './option-checks.js';
import type { SpawnTarget } from './process.js';

/** A checked SpawnTarget: a command line for a shell, or a file with arguments (no shell). */
export type CheckedSpawnTarget =
  | { command: string; shell: string | undefined }
  | { file: string; args: string[] };

/**
 * Exactly one of `command` (a non-blank string run through a shell) and `file` (run with
 * `args`, no shell); `args` only with `file`, `shell` only with `command`. The command's text
 * is never echoed in an error: it may hold secrets.
 */
export function checkSpawnTarget(target: SpawnTarget): CheckedSpawnTarget {
  exactlyOne(
    target as Readonly<Record<string, unknown>>,
    ['command', 'file'],
    'command runs in a shell, file does not',
  );
  if (target.command !== undefined) {
    const command = nonEmptyString('command', target.command, {
      nonBlank: true,
      secret: true,
      required: true,
    });
    if (target.args !== undefined) {
      throw invalidOption('args', 'given only with file (a command string carries its own arguments)');
    }
    return { command, shell: nonEmptyString('shell', target.shell) };
  }
  if (target.shell !== undefined)
    throw invalidOption('shell', 'given only with command (file runs without a shell)');
  return {
    file: nonEmptyString('file', target.file, { required: true }),
    args: stringArrayOption('args', target.args) ?? [],
  };
}

import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';

// glibc's execvp searches this when PATH is unset.
const DEFAULT_PATH = '/bin:/usr/bin';

/**
 * Finds `file` the way the child's execvp will: a name with a slash is a path (relative to
 * the child's cwd, where it execs); a bare name is searched on the child's PATH, an empty
 * entry meaning the cwd. Returns the executable's path, or undefined when there is none.
 *
 * This is checked before spawning because node-pty reports a missing program only as an
 * exit with code 1 and "execvp(3) failed." on the terminal.
 */
export function findExecutable(
  file: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (file.includes('/')) return isExecutableFile(resolve(cwd, file)) ? resolve(cwd, file) : undefined;
  for (const dir of (env.PATH ?? DEFAULT_PATH).split(':')) {
    const candidate = resolve(cwd, dir, file);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    // A miss must not throw: most PATH entries miss, and an exception each was most of the search.
    if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

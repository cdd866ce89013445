import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The first executable file named `name` on `path` (a PATH value), or undefined. Only absolute
 * directories count: what is found here runs on the host, where a relative one (`.`, `bin`)
 * would be looked up in the session's cwd, a workspace a sandboxed program can write.
 */
export function findExecutableOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '/usr/bin:/bin').split(':')) {
    if (!dir.startsWith('/')) continue;
    const candidate = join(dir, name);
    try {
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile() !== true) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

import { accessSync, constants, statSync } from 'node:fs';
import { join } from 'node:path';

/** The first executable file named `name` on `path` (a PATH value), or undefined. */
export function findExecutableOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '/usr/bin:/bin').split(':')) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile() !== true) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}

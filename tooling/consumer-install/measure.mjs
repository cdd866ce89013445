// What an install cost a consumer: packages npm placed and bytes on disk.
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Packages in node_modules, from npm's hidden lockfile (links and nested copies included). */
export function packageCount(project) {
  const lock = join(project, 'node_modules/.package-lock.json');
  if (!existsSync(lock)) return 0;
  const { packages } = JSON.parse(readFileSync(lock, 'utf8'));
  return Object.keys(packages).filter((key) => key.includes('node_modules/')).length;
}

/** Names of installed packages under a scope, e.g. '@procmux'. */
export function scopeMembers(project, scope) {
  const dir = join(project, 'node_modules', scope);
  return existsSync(dir) ? readdirSync(dir).map((name) => `${scope}/${name}`) : [];
}

/** Bytes of every file below `dir`, symlinks not followed. */
export function diskBytes(dir) {
  if (!existsSync(dir)) return 0;
  let total = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop();
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else total += lstatSync(path).size;
    }
  }
  return total;
}

export const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

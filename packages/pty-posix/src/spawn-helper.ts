import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where node-pty keeps `spawn-helper` next to its native module: the same directories and
 * order node-pty's own loader tries (build/Release, build/Debug, prebuilds/<platform>-<arch>).
 * Only macOS runs the helper; elsewhere a missing one is fine, so the result is then ''.
 */
export function findSpawnHelper(
  packageDir: string | undefined,
  platform: NodeJS.Platform,
  arch: string,
  exists: (path: string) => boolean = existsSync,
): string {
  if (packageDir === undefined) return '';
  const dirs = ['build/Release', 'build/Debug', `prebuilds/${platform}-${arch}`];
  for (const dir of dirs) {
    const candidate = join(packageDir, dir, 'spawn-helper');
    if (exists(candidate)) return candidate;
  }
  return '';
}

// The manifests a consumer's package manager reads, checked on every OS in every test run
// (the consumer-install test in .ci/run proves the same by installing; this is the fast guard).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const license = readFileSync(join(root, 'LICENSE'), 'utf8');
const manifests = readdirSync(join(root, 'packages')).map((dir) => ({
  dir: join(root, 'packages', dir),
  pkg: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')),
}));

describe.each(manifests.map(({ dir, pkg }) => [pkg.name as string, dir, pkg]))('%s', (_name, dir, pkg) => {
  it('loads with import and with require(), and publishes exports that name only dist/', () => {
    expect(pkg.exports['.']).toMatchObject({ types: './dist/index.d.ts', default: './dist/index.js' });
    const published = JSON.stringify(pkg.publishConfig.exports);
    expect(published).not.toContain('@procmux/');
    expect(published).not.toContain('./src/');
    expect(pkg.publishConfig.exports['.']).toEqual({
      types: './dist/index.d.ts',
      default: './dist/index.js',
    });
  });

  it('ships the MIT LICENSE of the repository', () => {
    expect(pkg.license).toBe('MIT');
    expect(pkg.files).toContain('LICENSE');
    expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toBe(license);
  });
});

describe('platform packages install the way esbuild and @swc/core do theirs', () => {
  const byName = new Map(manifests.map(({ pkg }) => [pkg.name as string, pkg]));
  const supervisor = byName.get('@procmux/supervisor');

  it('supervisor: the PTY packages are optional dependencies, the kill packages plain ones', () => {
    expect(Object.keys(supervisor.optionalDependencies).sort()).toEqual([
      '@procmux/pty-posix',
      '@procmux/pty-windows-conpty',
    ]);
    expect(supervisor.dependencies).toHaveProperty('@procmux/kill-posix');
    expect(supervisor.dependencies).toHaveProperty('@procmux/kill-windows');
    // Optional peers are installed by no package manager: a plain install could start nothing.
    expect(supervisor.peerDependencies).toBeUndefined();
  });

  it('each PTY package installs only on its OS; the kill packages everywhere', () => {
    expect(byName.get('@procmux/pty-posix').os).toEqual(['!win32']);
    expect(byName.get('@procmux/pty-windows-conpty').os).toEqual(['win32']);
    expect(byName.get('@procmux/kill-posix').os).toBeUndefined();
    expect(byName.get('@procmux/kill-windows').os).toBeUndefined();
  });
});

import { isProcmuxError } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { loadPtyBackend, PTY_BACKEND_ENV, type PtyBackendName } from '../src/index.js';
import { resolvePreference } from '../src/load-backend.js';
import { findSpawnHelper } from '../src/spawn-helper.js';

const HOMEBRIDGE = '@homebridge/node-pty-prebuilt-multiarch';
const fakeNative = { fork: () => ({ fd: -1, pid: -1, pty: '' }), resize: () => {} };

function importer(table: Partial<Record<PtyBackendName, unknown>>) {
  const asked: string[] = [];
  const importModule = async (name: PtyBackendName) => {
    asked.push(name);
    const entry = table[name];
    if (entry instanceof Error) throw entry;
    return entry;
  };
  return { asked, importModule };
}

describe('loadPtyBackend on this machine', () => {
  it('loads node-pty first, and caches it', async () => {
    const first = await loadPtyBackend({ env: {} });
    expect(first.name).toBe('node-pty');
    expect(typeof first.native.fork).toBe('function');
    expect(await loadPtyBackend({ env: {} })).toBe(first);
  });

  it('loads the homebridge prebuilt when asked, by option or by PROCMUX_PTY_BACKEND', async () => {
    expect((await loadPtyBackend({ prefer: 'homebridge' })).name).toBe(HOMEBRIDGE);
    expect((await loadPtyBackend({ env: { [PTY_BACKEND_ENV]: 'homebridge' } })).name).toBe(HOMEBRIDGE);
    expect(
      (await loadPtyBackend({ prefer: 'node-pty', env: { [PTY_BACKEND_ENV]: 'homebridge' } })).name,
    ).toBe('node-pty');
  });
});

describe('loadPtyBackend fallback', () => {
  it('falls back to homebridge when node-pty cannot load its native module', async () => {
    const { asked, importModule } = importer({
      'node-pty': new Error('Failed to load native module: pty.node, checked: build/Release'),
      [HOMEBRIDGE]: { default: { native: fakeNative } },
    });
    const backend = await loadPtyBackend({ importModule, locatePackage: () => undefined, env: {} });
    expect(backend.name).toBe(HOMEBRIDGE);
    expect(backend.native).toBe(fakeNative);
    expect(backend.helperPath).toBe('');
    expect(asked).toEqual(['node-pty', HOMEBRIDGE]);
  });

  it('accepts a module namespace without a default export', async () => {
    const { importModule } = importer({ 'node-pty': { native: fakeNative } });
    expect((await loadPtyBackend({ importModule, env: {} })).native).toBe(fakeNative);
  });

  it('tries only the forced backend', async () => {
    const { asked, importModule } = importer({ [HOMEBRIDGE]: new Error('Cannot find module') });
    await expect(loadPtyBackend({ importModule, prefer: 'homebridge' })).rejects.toThrow(
      /Cannot find module/,
    );
    expect(asked).toEqual([HOMEBRIDGE]);
  });

  it('says which packages were tried, where, why each failed, and the likely causes', async () => {
    const { importModule } = importer({
      'node-pty': new Error('Failed to load native module: pty.node\n  at require'),
      [HOMEBRIDGE]: { default: { native: null } },
    });
    const error = await loadPtyBackend({ importModule, platform: 'linux', arch: 'arm64', env: {} }).catch(
      (e: unknown) => e,
    );
    expect(isProcmuxError(error, 'ERR_PROCESS_PTY_BACKEND')).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('for linux-arm64');
    expect(message).toContain('node-pty (Failed to load native module: pty.node)');
    expect(message).toContain(`${HOMEBRIDGE} (${HOMEBRIDGE} loaded but exposes no native Unix PTY module`);
    expect(message).toMatch(/optional dependencies were omitted/);
    expect(message).toMatch(/copied from another operating system or architecture/);
    expect(message).toMatch(/install scripts were blocked/);
    expect((error as { details: unknown }).details).toEqual({
      platform: 'linux',
      arch: 'arm64',
      tried: [
        { name: 'node-pty', reason: 'Failed to load native module: pty.node' },
        { name: HOMEBRIDGE, reason: expect.stringContaining('exposes no native') },
      ],
    });
    expect((error as Error).cause).toBeInstanceOf(AggregateError);
  });

  it('shortens a very long reason and names a non-Error failure', async () => {
    const { importModule } = importer({ 'node-pty': new Error('x'.repeat(500)) });
    const long = await loadPtyBackend({ importModule, prefer: 'node-pty' }).catch((e: Error) => e.message);
    expect(long).toContain(`${'x'.repeat(297)}...`);
    const odd = await loadPtyBackend({
      importModule: () => Promise.reject('plain string'),
      prefer: 'node-pty',
    }).catch((e: Error) => e.message);
    expect(odd).toContain('node-pty (plain string)');
  });
});

describe('backend preference', () => {
  it("defaults to 'auto' and refuses anything but auto, node-pty, homebridge", () => {
    expect(resolvePreference(undefined, {})).toBe('auto');
    expect(resolvePreference(undefined, { [PTY_BACKEND_ENV]: '' })).toBe('auto');
    expect(resolvePreference(undefined, { [PTY_BACKEND_ENV]: 'node-pty' })).toBe('node-pty');
    expect(() => resolvePreference(undefined, { [PTY_BACKEND_ENV]: 'winpty' })).toThrow(
      'PROCMUX_PTY_BACKEND must be one of auto, node-pty, homebridge (got "winpty")',
    );
    expect(() => resolvePreference(3, {})).toThrow(
      'backend must be one of auto, node-pty, homebridge (got 3)',
    );
  });
});

describe('findSpawnHelper', () => {
  it("looks where node-pty's loader looks, in its order", () => {
    const seen: string[] = [];
    const exists = (path: string) => {
      seen.push(path);
      return path.endsWith('prebuilds/darwin-arm64/spawn-helper');
    };
    expect(findSpawnHelper('/pkg', 'darwin', 'arm64', exists)).toBe(
      '/pkg/prebuilds/darwin-arm64/spawn-helper',
    );
    expect(seen).toEqual([
      '/pkg/build/Release/spawn-helper',
      '/pkg/build/Debug/spawn-helper',
      '/pkg/prebuilds/darwin-arm64/spawn-helper',
    ]);
  });

  it("is '' when there is no helper or no package directory", () => {
    expect(findSpawnHelper('/pkg', 'linux', 'x64', () => false)).toBe('');
    expect(findSpawnHelper(undefined, 'darwin', 'x64', () => true)).toBe('');
  });
});

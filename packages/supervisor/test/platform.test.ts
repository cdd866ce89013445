import { isProcmuxError } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { currentPlatform, loadPlatform, platformPackages } from '../src/index.js';
import { resolvePlatform } from '../src/platform.js';
import { rejection } from './helpers.js';

const notFound = async (specifier: string): Promise<never> => {
  throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });
};

describe('platform selection', () => {
  it('reports the platform it runs on', () => {
    expect(currentPlatform()).toBe(process.platform);
  });

  it.each([
    ['win32', '@procmux/pty-windows-conpty', '@procmux/kill-windows'],
    ['linux', '@procmux/pty-posix', '@procmux/kill-posix'],
    ['darwin', '@procmux/pty-posix', '@procmux/kill-posix'],
    ['freebsd', '@procmux/pty-posix', '@procmux/kill-posix'],
  ] as const)('serves %s with %s and %s', (platform, pty, kill) => {
    expect(platformPackages(platform)).toEqual({ pty, kill });
  });

  it.each([
    'aix',
    'android',
    'cygwin',
    'darwin',
    'freebsd',
    'haiku',
    'linux',
    'netbsd',
    'openbsd',
    'sunos',
    'win32',
  ])('takes %s as an injected platform', (platform) => {
    let resolved: unknown;
    try {
      resolved = resolvePlatform(platform);
    } catch (error) {
      resolved = error;
    }
    expect(resolved).toBe(platform);
  });

  it('defaults to the current platform and refuses one Node does not know, by name', () => {
    expect(resolvePlatform(undefined)).toBe(process.platform);
    let error: unknown;
    try {
      resolvePlatform('linx');
    } catch (caught) {
      error = caught;
    }
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as Error).message).toMatch(/^platform /);
    expect((error as Error).message).toContain('win32');
  });

  it('imports nothing until a module is asked for, and each package once', async () => {
    const imported: string[] = [];
    const modules = loadPlatform('win32', async (specifier) => {
      imported.push(specifier);
      return specifier.includes('pty')
        ? { createPtyAdapter: async () => undefined }
        : { killProcessTree: async () => ({ signalled: [], survivors: [] }) };
    });
    expect(modules.platform).toBe('win32');
    expect(imported).toEqual([]);
    const kill = await modules.loadKill();
    expect(await modules.loadKill()).toBe(kill);
    await modules.loadPty();
    await modules.loadPty();
    expect(imported).toEqual(['@procmux/kill-windows', '@procmux/pty-windows-conpty']);
  });

  it('names a missing PTY package as a PTY backend error', async () => {
    const error = await rejection(loadPlatform('win32', notFound).loadPty());
    expect(isProcmuxError(error, 'ERR_PROCESS_PTY_BACKEND')).toBe(true);
    expect((error as Error).message).toContain('@procmux/pty-windows-conpty is needed on win32/');
    expect((error as Error).message).toContain('optional dependencies omitted');
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect((error as { details?: unknown }).details).toMatchObject({
      package: '@procmux/pty-windows-conpty',
    });
  });

  it('names a missing kill package as unsupported', async () => {
    const error = await rejection(loadPlatform('linux', notFound).loadKill());
    expect(isProcmuxError(error, 'ERR_PROCESS_UNSUPPORTED')).toBe(true);
    expect((error as Error).message).toContain('@procmux/kill-posix is needed on linux/');
  });

  it('refuses a package without the expected export', async () => {
    const error = await rejection(loadPlatform('linux', async () => ({ other: 1 })).loadPty());
    expect(isProcmuxError(error, 'ERR_PROCESS_PTY_BACKEND')).toBe(true);
    expect((error as Error).message).toContain('does not export createPtyAdapter()');
    expect((error as { details?: unknown }).details).toEqual({
      package: '@procmux/pty-posix',
      platform: 'linux',
      arch: process.arch,
    });
  });

  it('refuses a package that loads as nothing', async () => {
    const error = await rejection(loadPlatform('linux', async () => null).loadKill());
    expect(isProcmuxError(error, 'ERR_PROCESS_UNSUPPORTED')).toBe(true);
    expect((error as Error).message).toContain('does not export killProcessTree()');
  });

  it('finds the entry points it expects in the real Windows packages (imported, not run)', async () => {
    const modules = loadPlatform('win32');
    expect(typeof (await modules.loadPty()).createPtyAdapter).toBe('function');
    expect(typeof (await modules.loadKill()).killProcessTree).toBe('function');
  });

  it.skipIf(process.platform === 'win32')('loads the real POSIX packages here', async () => {
    const modules = loadPlatform(currentPlatform());
    expect(typeof (await modules.loadKill()).killProcessTree).toBe('function');
    expect(typeof (await modules.loadPty()).createPtyAdapter).toBe('function');
  });
});

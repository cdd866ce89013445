import { isProcmuxError } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { loadNodePty } from '../src/index.js';

describe('loadNodePty', () => {
  it('loads node-pty once and caches it', async () => {
    const first = await loadNodePty();
    expect(typeof first.spawn).toBe('function');
    expect(await loadNodePty()).toBe(first);
  });

  it('takes the default export of a CommonJS namespace, or the namespace itself', async () => {
    const spawn = () => {
      throw new Error('unused');
    };
    expect((await loadNodePty({ importModule: async () => ({ default: { spawn } }) })).spawn).toBe(spawn);
    expect((await loadNodePty({ importModule: async () => ({ spawn }) })).spawn).toBe(spawn);
  });

  it('says what failed, for which platform, and the likely causes', async () => {
    const error = await loadNodePty({
      importModule: () => Promise.reject(new Error('Cannot find module conpty.node\nRequire stack:')),
      platform: 'win32',
      arch: 'arm64',
    }).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_PROCESS_PTY_BACKEND')).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('for win32-arm64. Tried: node-pty (Cannot find module conpty.node)');
    expect(message).toMatch(/optional dependencies were omitted/);
    expect(message).toMatch(/copied from another operating system/);
    expect(message).toMatch(/install scripts were blocked/);
    expect((error as { details: unknown }).details).toEqual({
      platform: 'win32',
      arch: 'arm64',
      tried: [{ name: 'node-pty', reason: 'Cannot find module conpty.node' }],
    });
  });

  it('refuses a module without spawn, and names a non-Error failure', async () => {
    await expect(loadNodePty({ importModule: async () => ({ default: {} }) })).rejects.toThrow(
      'node-pty (node-pty loaded but has no spawn function)',
    );
    await expect(loadNodePty({ importModule: () => Promise.reject('x'.repeat(400)) })).rejects.toThrow(
      `node-pty (${'x'.repeat(297)}...)`,
    );
  });
});

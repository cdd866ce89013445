// The channel's failure paths, over the real native module with one effect replaced.
import { closeSync, openSync } from 'node:fs';
import { isProcmuxError } from '@procmux/core-types';
import { checkLeaksAfterAll } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { loadPtyBackend, PtyAdapter, type PtyBackend } from '../src/index.js';
import { MasterWriter } from '../src/master-writer.js';

checkLeaksAfterAll();

describe('PtyChannel failure paths', () => {
  it('turns a failing native fork into ERR_PROCESS_SPAWN', async () => {
    const real = await loadPtyBackend({ prefer: 'node-pty' });
    const broken: PtyBackend = {
      ...real,
      native: {
        resize: real.native.resize,
        fork: () => {
          throw new Error('forkpty(3) failed.');
        },
      },
    };
    const error = await PtyAdapter.create({ command: 'true', backend: broken }).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_PROCESS_SPAWN')).toBe(true);
    expect((error as Error).message).toBe('could not start bash on a PTY (node-pty fork failed)');
    expect(((error as Error).cause as Error).message).toBe('forkpty(3) failed.');
  });

  it('still runs and reports output when the slave cannot be held open', async () => {
    const real = await loadPtyBackend({ prefer: 'node-pty' });
    const unholdable: PtyBackend = {
      ...real,
      native: {
        resize: real.native.resize,
        fork: (...args) => ({ ...real.native.fork(...args), pty: '/nonexistent/pts' }),
      },
    };
    const pty = await PtyAdapter.create({ command: 'echo degraded', backend: unholdable });
    let out = '';
    pty.onStdout((chunk) => {
      out += chunk;
    });
    expect(await pty.wait()).toEqual({ code: 0, signal: null });
    expect(out).toBe('degraded\r\n');
  });

  it('refuses a backend object that is not a loaded backend', async () => {
    await expect(
      PtyAdapter.create({ command: 'true', backend: { name: 'node-pty' } as unknown as PtyBackend }),
    ).rejects.toThrow(/backend must be 'auto', 'node-pty', 'homebridge' or a PtyBackend/);
  });
});

describe('MasterWriter', () => {
  it('stops and reports when the descriptor refuses input', async () => {
    const fd = openSync('/dev/null', 'r');
    const errors: string[] = [];
    const writer = new MasterWriter(fd, (error) => errors.push(error.code ?? ''));
    writer.write('refused');
    await expect.poll(() => errors, { timeout: 10_000 }).toEqual(['EBADF']);
    closeSync(fd);
    writer.write('');
    writer.close();
    writer.write('after close');
  });
});

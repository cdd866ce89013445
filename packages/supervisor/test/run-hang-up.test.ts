// ManagedRun.hangUp: the run passes the hang-up to its adapter; only a native terminal has one.
import type { ProcessAdapter } from '@procmux/core-types';
import { assertNoLeakedProcesses, waitFor } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { ProcessSupervisor } from '../src/index.js';
import { cancelRunsAfterEach } from './helpers.js';

const supervisor = new ProcessSupervisor({ logger: { warn: () => {} } });
const track = cancelRunsAfterEach();

afterAll(async () => {
  await supervisor.dispose();
  await assertNoLeakedProcesses();
});

describe.skipIf(process.platform === 'win32')('ManagedRun.hangUp', () => {
  it('hangs a terminal up: an idle bash -i ends by SIGHUP; a settled run signals nothing', async () => {
    let out = '';
    const run = track(
      await supervisor.spawn({
        file: 'bash',
        args: ['--norc', '--noprofile', '-i'],
        mode: 'pty',
        stdin: 'open',
        onStdout: (chunk) => {
          out += chunk;
        },
      }),
    );
    await waitFor(() => /[$#] *$/.test(out), 15_000, 'a bash prompt');
    await expect(run.hangUp()).resolves.toBe(true);
    expect(await run.wait()).toMatchObject({ reason: 'signal', signal: 'SIGHUP' });
    await expect(run.hangUp()).resolves.toBe(false);
  });

  it('signals nothing on pipes: the process goes on', async () => {
    const run = track(await supervisor.spawn({ file: 'sleep', args: ['30'], mode: 'pipe' }));
    await expect(run.hangUp()).resolves.toBe(false);
    run.cancel();
    expect((await run.wait()).signal).toBe('SIGTERM');
  });

  it("uses the adapter's own hangUp() where it has one, and is false where it has none", async () => {
    let hungUp = 0;
    const fake = (withHangUp: boolean): ProcessAdapter => {
      let exit!: () => void;
      return {
        pid: undefined,
        stdioMode: 'pty',
        stdin: undefined,
        onStdout: () => () => {},
        onStderr: () => () => {},
        wait: () => new Promise((resolve) => (exit = () => resolve({ code: null, signal: 'SIGHUP' }))),
        kill: async () => exit(),
        ...(withHangUp
          ? {
              hangUp: async () => {
                hungUp++;
                return true;
              },
            }
          : {}),
        dispose: () => {},
      };
    };
    const own = track(await supervisor.spawn({ adapterFactory: async () => fake(true) }));
    const none = track(await supervisor.spawn({ adapterFactory: async () => fake(false) }));
    await expect(own.hangUp()).resolves.toBe(true);
    await expect(none.hangUp()).resolves.toBe(false);
    expect(hungUp).toBe(1);
  });
});

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

  it('answers no terminal query once the terminal is hung up: nothing reaches the shell a program leaves', async () => {
    // Asks where the cursor is at start (answered), and again when hung up, then reports
    // what reached its input in the next 600 ms (a shell would read it as typed keys).
    const program = `
      process.stdin.setRawMode(true);
      let got = '';
      process.stdin.on('data', (d) => { got += d.toString('latin1'); });
      process.stdout.write('\\x1b[6n');
      setTimeout(() => process.stdout.write('READY ' + JSON.stringify(got) + '\\n'), 300);
      process.on('SIGHUP', () => {
        got = '';
        process.stdout.write('\\x1b[6n');
        setTimeout(() => { process.stdout.write('AFTER ' + JSON.stringify(got) + '\\n'); process.exit(0); }, 600);
      });
      setInterval(() => {}, 1000);
    `;
    let out = '';
    const run = track(
      await supervisor.spawn({
        file: process.execPath,
        args: ['-e', program],
        mode: 'pty',
        stdin: 'open',
        onStdout: (chunk) => {
          out += chunk;
        },
      }),
    );
    await waitFor(() => out.includes('READY'), 15_000, 'the first answer');
    expect(out).toContain('READY "\\u001b[1;1R"');
    await expect(run.hangUp()).resolves.toBe(true);
    await run.wait();
    expect(out).toContain('AFTER ""');
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

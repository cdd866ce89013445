// Python holds print() output back when stdout is a pipe: a daemon's "ready" line must still
// be seen while it runs, and what a one-shot printed must not be lost when it is killed
// (PIPE_OUTPUT_ENV). The caller's env and the host's option still decide.
import { withoutUsage } from '@procmux/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closingHarness, idOf } from './helpers.js';

const harness = closingHarness();
const posix = process.platform !== 'win32';
const hostValue = process.env.PYTHONUNBUFFERED;

// Python's default SIGTERM action ends it at once: nothing held in its buffers is written.
const PRINT_THEN_TERM = `python3 -c "import os, signal; print('step 1 done'); os.kill(os.getpid(), signal.SIGTERM)"`;
const SHOW = 'echo "[$PYTHONUNBUFFERED]"';

beforeEach(() => {
  delete process.env.PYTHONUNBUFFERED;
});
afterEach(() => {
  if (hostValue === undefined) delete process.env.PYTHONUNBUFFERED;
  else process.env.PYTHONUNBUFFERED = hostValue;
});

describe.runIf(posix)('output a program holds back on a pipe', () => {
  it('a Python daemon is seen ready: wait_for finds the line it printed', async () => {
    const h = harness();
    // It prints once told to, so the line comes after exec's reply, whenever that returned.
    const id = idOf(
      await h.exec({
        command: `python3 -c "import sys, time; sys.stdin.readline(); print('ready on 8000'); time.sleep(30)"`,
        mode: 'daemon',
      }),
    );
    await h.proc({ action: 'write', session_id: id, data: 'go\n' });
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: 'ready on \\d+', timeout: 20_000 });
    expect(r.data.wait).toMatchObject({ fired: 'pattern', match: 'ready on 8000' });
  });

  it('a one-shot killed after printing keeps what it printed', async () => {
    const h = harness();
    const r = await h.exec({ command: PRINT_THEN_TERM });
    expect(withoutUsage(r.text)).toBe('step 1 done\n\nProcess killed by SIGTERM.');
  });

  it('loses it without the defaults (the setup above is a real trap)', async () => {
    const h = harness({ pipeOutputEnv: {} });
    const r = await h.exec({ command: PRINT_THEN_TERM });
    expect(withoutUsage(r.text)).toBe('(no output)\n\nProcess killed by SIGTERM.');
  });

  it("sets it for one-shots and daemons, under the caller's env; a session's terminal needs none", async () => {
    const h = harness();
    expect(withoutUsage((await h.exec({ command: SHOW })).text)).toBe('[1]\n\nProcess exited with code 0.');
    expect(withoutUsage((await h.exec({ command: SHOW, env: { PYTHONUNBUFFERED: '' } })).text)).toBe(
      '[]\n\nProcess exited with code 0.',
    );
    // The whole log once it ended: what exec's first reply held depends on how soon it came.
    const shown = async (mode: string) => {
      const id = idOf(await h.exec({ command: SHOW, mode }));
      await h.proc({ action: 'wait_for', session_id: id, exit: true, timeout: 20_000 });
      const log = await h.proc({ action: 'log', session_id: id });
      return /\[\d*\]/.exec(log.text)?.[0];
    };
    expect(await shown('daemon')).toBe('[1]');
    expect(await shown('session')).toBe('[]');
  });
});

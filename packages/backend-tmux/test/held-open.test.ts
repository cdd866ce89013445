// A script whose last step is `await session.wait()` or `await session.kill()` on a tmux-held
// session runs to its end: the pane is followed by timers that do not hold a host open (a
// detached session must not), so the awaited call itself does; Node's exit code 13 (an
// unsettled top-level await) was what such a script got.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, stateDir, teardown } from './helpers.js';

afterEach(teardown);

describe.skipIf(process.platform === 'win32')('an awaited wait() or kill() holds the host open', () => {
  it.each([
    ['wait', { exitCode: 3, state: 'exited' }],
    ['kill', { state: 'killed' }],
  ] as const)('%s: the script prints the outcome and exits 0', (how, expected) => {
    const run = spawnSync(process.execPath, [join(FIXTURES, 'await-end.mjs'), stateDir(), how], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(run.stdout.trim())).toMatchObject(expected);
  });
});

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { disposeAfterEach, isAlive, makeWorkspace, waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSessions } from '../src/index.js';

// A daemon-like program closes its output and goes on working. Its session must stay
// `running` (an EOF on the output is not the end of the process), stay killable, and report
// the real end when it comes. The program says when it has closed them through a file, and
// ends (code 7) when the test writes another.
const workspace = makeWorkspace();
const track = disposeAfterEach<ProcessSessions>();

const CLOSES = {
  'stdout and stderr': 'exec >&- 2>&-',
  'stdin, stdout and stderr': 'exec <&- >&- 2>&-',
};
const program = (close: string, dir: string) =>
  `printf 'before the close\\n'; ${close}; : > '${dir}/closed'; ` +
  `while [ ! -e '${dir}/stop' ]; do sleep 0.05; done; exit 7`;

for (const pty of [false, true]) {
  for (const [what, close] of Object.entries(CLOSES)) {
    const where = `${pty ? 'a PTY' : 'pipes'}, closing ${what}`;
    describe(`a program that closes its output and runs on (${where})`, () => {
      it('is still running after the close, then reports its own exit', async () => {
        const dir = makeWorkspace();
        const sessions = track(createProcessSessions({ cwd: workspace }));
        const s = await sessions.start({ command: 'sh', args: ['-c', program(close, dir)], pty });
        let seen = '';
        await waitFor(
          async () => {
            seen += (await s.poll()).stdout;
            return seen.includes('before the close');
          },
          10_000,
          'the output written before the close',
        );
        await waitFor(() => existsSync(join(dir, 'closed')), 10_000, 'the program to close its output');
        // Nothing is left to read: this poll returns at the session's end or after 1 s. An
        // EOF taken for the end would end it within milliseconds of the close.
        const after = await s.poll({ timeoutMs: 1_000 });
        expect(after).toMatchObject({ stdout: '', stderr: '', state: 'running', exitCode: null });
        expect(s.metadata()).toMatchObject({ state: 'running', endedAt: null });
        expect(isAlive(s.pid!)).toBe(true);
        writeFileSync(join(dir, 'stop'), '');
        expect(await s.wait({ timeoutMs: 10_000 })).toEqual({ exitCode: 7, signal: null, state: 'exited' });
      });

      it('is killable after the close, and its end is reported', async () => {
        const dir = makeWorkspace();
        const sessions = track(createProcessSessions({ cwd: workspace }));
        const s = await sessions.start({ command: 'sh', args: ['-c', program(close, dir)], pty });
        await waitFor(() => existsSync(join(dir, 'closed')), 10_000, 'the program to close its output');
        expect(s.state).toBe('running');
        await s.kill();
        expect(s.metadata()).toMatchObject({ state: 'killed', exitCode: null });
        expect(s.metadata().endedAt).not.toBeNull();
        expect(isAlive(s.pid!)).toBe(false);
      });
    });
  }
}

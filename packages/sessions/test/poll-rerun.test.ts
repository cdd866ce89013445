// A terminal program that erases its screen and writes its output again (a test watcher's rerun,
// `watch`, `clear` in a loop): each poll after the erase returns the new screen whole, its lines
// equal to the last run's included, and never the scrollback above it again.
import { assertNoLeakedProcesses, makeWorkspace, waitFor } from '@procmux/test-utils';
import { afterAll, expect, it } from 'vitest';
import { createProcessSessions } from '../src/index.js';

afterAll(async () => {
  await assertNoLeakedProcesses();
});

const CLEARS = {
  'tput clear': '\\033[H\\033[2J',
  'jest rerun': '\\033[2J\\033[3J\\033[H',
  'console.clear()': '\\033[1;1H\\033[0J',
};

it.runIf(process.platform !== 'win32').each(Object.entries(CLEARS))(
  'a rerun after an erase (%s) comes back whole, once',
  async (_name, clear) => {
    const sessions = createProcessSessions({ cwd: makeWorkspace() });
    try {
      // 40 lines of history scroll above a 24-row screen first; each run waits for a line of
      // input (not echoed), so each poll below reads a settled screen.
      const run = (last: string) => `printf '${clear}RUN v1\\r\\nPASS a\\r\\n${last}\\r\\n'; read -r _`;
      const script = [
        'stty -echo',
        'seq 1 40',
        'read -r _',
        run('FAIL b'),
        run('PASS b'),
        run('PASS b'),
      ].join('; ');
      const session = await sessions.start({ command: script, shell: true, pty: true });
      let text = '';
      const until = async (count: number) => {
        await waitFor(
          async () => {
            text += (await session.poll({ timeoutMs: 1_000 })).stdout;
            return (
              text.split('PASS a').length - 1 === count &&
              /PASS b|FAIL b/.test(text.slice(text.lastIndexOf('PASS a')))
            );
          },
          20_000,
          `run ${count}`,
        );
      };
      await waitFor(
        async () => {
          text += (await session.poll({ timeoutMs: 1_000 })).stdout;
          return text.includes('\n40');
        },
        20_000,
        'the history',
      );
      for (const count of [1, 2, 3]) {
        await session.input('\r');
        await until(count);
      }
      const history = Array.from({ length: 40 }, (_, i) => `${i + 1}`).join('\n');
      const runs = ['FAIL b', 'PASS b', 'PASS b'].map((last) => `RUN v1\nPASS a\n${last}`).join('\n');
      expect(text).toBe(`${history}\n${runs}`);
      await session.input('\r');
      await session.wait();
    } finally {
      await sessions.dispose();
    }
  },
);

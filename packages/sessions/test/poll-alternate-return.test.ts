// A pager or editor in a shell session (less, vim, man, psql's pager): once it exits, the polls
// bring the shell's command line and what follows, not the screen from before it again.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoLeakedProcesses, makeWorkspace, waitFor } from '@procmux/test-utils';
import { afterAll, expect, it } from 'vitest';
import { createProcessSessions } from '../src/index.js';

afterAll(async () => {
  await assertNoLeakedProcesses();
});

it.runIf(process.platform !== 'win32')(
  'while less runs, its screen reads alone; after it exits, the screen before it does not come back',
  async () => {
    const cwd = makeWorkspace();
    writeFileSync(join(cwd, 'page.txt'), 'PAGE LINE\n'.repeat(5));
    const sessions = createProcessSessions({ cwd });
    try {
      const session = await sessions.start({
        command: 'bash',
        args: ['--norc', '-i'],
        pty: true,
        env: { LESS: '' },
      });
      // bash --norc's own prompt (`bash-5.2#` as root, `bash-5.2$` otherwise).
      const PROMPT = /bash-[\d.]+[#$]\s*$/;
      let text = '';
      const until = async (done: (text: string) => boolean, what: string) => {
        await waitFor(
          async () => {
            text += (await session.poll({ timeoutMs: 1_000 })).stdout;
            return done(text);
          },
          20_000,
          what,
        );
      };
      await until((t) => PROMPT.test(t), 'the prompt');
      // 100 lines: the screen is full and scrolled, its rows all read.
      await session.input('seq 1 100\r');
      await until((t) => /^100$/m.test(t) && PROMPT.test(t), 'seq');
      await session.input('less page.txt\r');
      await until((t) => t.includes('(END)') && session.fullScreen, 'less');
      // While less shows the file: the screen alone is its screen; the full one has the history too.
      const alone = await session.screen({ scrollback: false });
      expect(alone).toContain('PAGE LINE');
      expect(alone).not.toMatch(/^(50|99|.*seq 1 100)$/m);
      expect(await session.screen()).toMatch(/^50$/m);
      const before = text.length;
      await session.input('q');
      await until((t) => PROMPT.test(t.slice(before)), 'the prompt after less');
      const after = text.slice(before);
      // The command line comes once: with less's exit, or before it when a poll caught its echo.
      expect(after).toMatch(/^(\nbash-[\d.]+[#$] less page\.txt)?\nbash-[\d.]+[#$]\s*$/);
      expect(text.split('less page.txt')).toHaveLength(2);
      expect(after).not.toContain('99');
      await session.input('exit\r');
      await session.wait();
    } finally {
      await sessions.dispose();
    }
  },
);

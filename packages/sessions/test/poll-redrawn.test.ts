// A terminal program that draws lines again in place (a progress display, procps top): poll
// says how many lines of the text earlier polls returned its text stands in for, so a reader
// can show what the terminal shows rather than every state it went through.
import { assertNoLeakedProcesses, makeWorkspace, waitFor } from '@procmux/test-utils';
import { afterAll, expect, it } from 'vitest';
import { createProcessSessions } from '../src/index.js';

/**
 * `held` less its last `redrawn` lines, then `text`. Drawn over from its first line, the text's
 * leading line break has no line before it to end.
 */
function splice(held: string, redrawn: number, text: string): string {
  let cut = held.length;
  for (let line = 0; line < redrawn; line++) {
    const at = held.lastIndexOf('\n', cut - 1);
    if (at === -1) return text.replace(/^\n/, '');
    cut = at;
  }
  return held.slice(0, cut) + text;
}

afterAll(async () => {
  await assertNoLeakedProcesses();
});

it.runIf(process.platform !== 'win32')(
  'says which lines a redraw stands in for, and nothing for new lines or a cleared screen',
  async () => {
    const sessions = createProcessSessions({ cwd: makeWorkspace() });
    try {
      // Each step waits for a line of input (not echoed), so every poll below reads a settled screen.
      const frame = (n: number) => `printf '\\r\\033[2Ka: ${n}%%\\r\\n\\r\\033[2Kb: ${n}%%\\r\\n'`;
      const script = [
        'stty -echo',
        `${frame(10)}; read -r _`,
        `printf '\\033[2A'; ${frame(20)}; read -r _`,
        'echo after; read -r _',
        "printf '\\033[H\\033[2J\\033[3Jcleared\\r\\n'; read -r _",
      ].join('; ');
      const session = await sessions.start({ command: script, shell: true, pty: true });
      // The text a reader holds: each poll's redrawn lines dropped, then its text appended.
      let held = '';
      const reads: number[] = [];
      const until = async (text: string): Promise<number> => {
        let redrawn = 0;
        await waitFor(
          async () => {
            const poll = await session.poll({ timeoutMs: 1_000 });
            redrawn += poll.redrawnLines ?? 0;
            if (poll.stdout !== '') reads.push(poll.stdoutRead ?? 0);
            held = splice(held, poll.redrawnLines ?? 0, poll.stdout);
            return held.includes(text);
          },
          20_000,
          text,
        );
        return redrawn;
      };
      expect(await until('b: 10%')).toBe(0);
      expect(held).toBe('a: 10%\nb: 10%');
      await session.input('\r');
      expect(await until('b: 20%')).toBeGreaterThanOrEqual(2);
      expect(held).toBe('a: 20%\nb: 20%');
      await session.input('\r');
      expect(await until('after')).toBe(0);
      await session.input('\r');
      // A cleared screen is written afresh: what was on it stays in the text.
      expect(await until('cleared')).toBe(0);
      expect(held).toBe('a: 20%\nb: 20%\nafter\ncleared');
      await session.input('\r');
      await session.wait();
      // Every poll that brought text is numbered, in order: a reader knows whether it made the one before.
      expect(reads).toEqual(reads.map((_, i) => i + 1));
    } finally {
      await sessions.dispose();
    }
  },
);

// log() on real full-screen programs in a real terminal: vim, less and top are rendered as a
// person saw them, progress bars show their final state, the shell lines around them intact.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { disposeAfterEach, makeWorkspace, waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSession, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
const rc = join(workspace, 'bashrc');
writeFileSync(rc, "PS1='$ '\n");
const track = disposeAfterEach<ProcessSessions>();

/** bash with a fixed prompt in an 80×24 terminal, so the lines around a program are exact. */
async function shell(): Promise<ProcessSession> {
  const sessions = track(createProcessSessions({ cwd: workspace }));
  const s = await sessions.start({
    command: 'bash',
    args: ['--noprofile', '--rcfile', rc, '-i'],
    pty: true,
    terminal: { columns: 80, rows: 24 },
  });
  await prompts(s, 1);
  return s;
}

async function prompts(s: ProcessSession, count: number): Promise<void> {
  await waitFor(
    async () => ((await s.screen()).match(/^\$( |$)/gm) ?? []).length >= count,
    20_000,
    `${count} prompts`,
  );
}

async function lines(s: ProcessSession): Promise<string[]> {
  const page = await s.log({ offset: 0, limit: 10_000 });
  expect(page.lines).toBe(page.totalLines);
  return page.text.split('\n');
}

/** Nothing of an escape sequence survives: no ESC, no CSI leftovers such as `[K` or `39;49m`. */
function expectClean(text: string[]): void {
  for (const line of text) {
    expect(line).not.toMatch(/\x1b|\[\??\d+(;\d+)*[A-Za-z]|\[K/);
  }
}

const TILDES = Array.from({ length: 21 }, () => '~');

describe.skipIf(process.platform === 'win32')('log renders full-screen programs', () => {
  it('vim: its screen while it runs, its last screen after :q, the shell lines around it intact', async () => {
    writeFileSync(join(workspace, 'notes.txt'), 'first line\nsecond line\n');
    const s = await shell();
    await s.input('echo before; vim -u NONE -N notes.txt; echo after\r');
    // vim prints its file message before it draws the buffer: wait for both on screen.
    await waitFor(
      async () => {
        const screen = await s.screen();
        const tildes = screen.split('\n').filter((line) => line.trimEnd() === '~').length;
        return (
          screen.includes('"notes.txt" 2L') && screen.includes('second line') && tildes === TILDES.length
        );
      },
      20_000,
      'vim',
    );
    const head = (await s.log({ offset: 0, limit: 2 })).text;
    expect(head).toBe('$ echo before; vim -u NONE -N notes.txt; echo after\nbefore');
    expect((await lines(s)).slice(2)).toEqual([
      '[full-screen vim: its screen now, rendered; still running]',
      'first line',
      'second line',
      ...TILDES,
      '"notes.txt" 2L, 23B',
    ]);
    await s.input(':q\r');
    // Two reads at once while the last screen may still be rendering: the same answer.
    const [a, b] = await Promise.all([s.log({ offset: 0, limit: 100 }), s.log({ offset: 0, limit: 100 })]);
    expect(a).toEqual(b);
    await prompts(s, 2);
    const after = await lines(s);
    expect(after).toEqual([
      '$ echo before; vim -u NONE -N notes.txt; echo after',
      'before',
      '[full-screen vim: its last screen, rendered]',
      'first line',
      'second line',
      ...TILDES,
      '[end of full-screen vim]',
      'after',
      '$ ',
    ]);
    expectClean(after);
    // The page served while vim ran is still the same lines.
    expect((await s.log({ offset: 0, limit: 2 })).text).toBe(head);
  });

  it("vim: after :wq its last screen keeps the file's first line (the line feed vim writes as it leaves scrolls nothing away)", async () => {
    const s = await shell();
    await s.input('vim -u NONE -N subject.txt; echo after\r');
    await waitFor(async () => (await s.screen()).includes('"subject.txt" [New]'), 20_000, 'vim');
    await s.input('ifix: keep the first row\x1b');
    await waitFor(async () => (await s.screen()).startsWith('fix: keep the first row'), 20_000, 'the text');
    await s.input(':wq\r');
    await prompts(s, 2);
    const text = await lines(s);
    expect(text.slice(0, 3)).toEqual([
      '$ vim -u NONE -N subject.txt; echo after',
      '[full-screen vim: its last screen, rendered]',
      'fix: keep the first row',
    ]);
    expect(text.slice(3, 3 + TILDES.length + 1)).toEqual([...TILDES, '~']);
    expect(text[3 + TILDES.length + 1]).toMatch(/^"subject\.txt" \[New\] 1L, 24B written$/);
    expect(text.slice(3 + TILDES.length + 2)).toEqual(['[end of full-screen vim]', 'after', '$ ']);
    expectClean(text);
  });

  it('less on a 500-line file then q: the page it showed, then the shell', async () => {
    writeFileSync(
      join(workspace, 'long.txt'),
      Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join('\n'),
    );
    const s = await shell();
    await s.input('less long.txt; echo after\r');
    await waitFor(async () => (await s.screen()).includes('line 23'), 20_000, 'less');
    await s.input('q');
    await prompts(s, 2);
    const text = await lines(s);
    expect(text).toEqual([
      '$ less long.txt; echo after',
      '[full-screen less: its last screen, rendered]',
      ...Array.from({ length: 23 }, (_, i) => `line ${i + 1}`),
      '[end of full-screen less]',
      'after',
      '$ ',
    ]);
  });

  it('top -b -n 1 is plain text; interactive top is rendered as its last screen, not its stacked redraws', async () => {
    const s = await shell();
    await s.input('top -b -n 1 | head -3; top -d 0.2; echo after\r');
    await waitFor(async () => /^\s*PID USER/m.test(await s.screen()), 20_000, 'top');
    // A few refreshes (each only rewrites the rows that changed): the log grows three times.
    for (let refresh = 0; refresh < 3; refresh++) {
      const seen = s.metadata().totalBytes;
      await waitFor(async () => s.metadata().totalBytes > seen, 20_000, 'top to refresh');
    }
    await s.input('q');
    // top cleared the screen, the first prompt with it: wait for the line after it.
    await waitFor(async () => /after\n\$$/.test(await s.screen()), 20_000, 'top to quit');
    const text = await lines(s);
    expectClean(text);
    expect(text[0]).toBe('$ top -b -n 1 | head -3; top -d 0.2; echo after');
    // Batch mode: its own three lines, stripped.
    expect(text[1]).toMatch(/^top - \d\d:\d\d:\d\d up /);
    expect(text[2]).toMatch(/^Tasks: +\d+ total/);
    expect(text[3]).toMatch(/^%Cpu\(s\):/);
    expect(text[4]).toBe('[screen repainted in place by top: its last state, rendered]');
    expect(text[5]).toMatch(/^top - \d\d:\d\d:\d\d up /);
    expect(text[6]).toMatch(/^Tasks: +\d+ total/);
    const end = text.indexOf('[end of repainted screen: top]');
    expect(end).toBeGreaterThan(10);
    // One screen of it (24 rows), with its header row: not one copy per refresh. Two rows more
    // when the shell's lines were read with top's last frame and drawn on it: top's last line
    // feed on the bottom row and `after`'s scrolled the screen by one each.
    expect(end - 5).toBeLessThanOrEqual(26);
    expect(text.slice(5, end).some((line) => /^\s*PID USER/.test(line))).toBe(true);
    expect(text.filter((line) => /^top - /.test(line))).toHaveLength(2);
    // The shell's lines come once each, last: after top's block, or drawn on top's last
    // screen when the host read them together with top's last frame (after the shell had
    // the terminal back). top's last move (cursor to the bottom row) is a repaint too: read
    // after the shell took over, the shell's lines after it are rendered (right-trimmed, no
    // marker) until the next command. The same lines every way.
    const shellLines = text
      .filter((line) => !/^\[(screen repainted|end of repainted)/.test(line))
      .map((line) => line.trimEnd());
    expect(shellLines.slice(-2)).toEqual(['after', '$']);
    expect(shellLines.filter((line) => line === 'after')).toHaveLength(1);
  });

  it('a progress bar rewritten with \\r and a line rewritten with ESC[K show their final state', async () => {
    const s = await shell();
    await s.input(
      "printf 'progress 10%%\\r'; sleep 0.2; printf 'progress 55%%\\r'; sleep 0.2; printf 'progress 100%%\\n'; " +
        "printf 'building\\r\\033[Kbuilt\\n'\r",
    );
    await prompts(s, 2);
    expect((await lines(s)).slice(1)).toEqual(['progress 100%', 'built', '$ ']);
  });

  it("a session killed while vim is on screen keeps vim's last screen, and vim leaves no swap file", async () => {
    writeFileSync(join(workspace, 'kill.txt'), 'kept\n');
    const s = await shell();
    await s.input('vim -N -u NONE kill.txt\r');
    await waitFor(async () => (await s.screen()).includes('"kill.txt" 1L'), 20_000, 'vim');
    // vim asks the terminal questions as it starts; killed before it read the answers, they
    // would be left for the shell to read as typed keys. Blocked reading its terminal, it has.
    await waitFor(async () => (await s.checkInput())?.confidence === 'kernel', 20_000, 'vim reading');
    const outcome = await s.kill();
    expect(outcome.signal).toBe('SIGHUP');
    const text = await lines(s);
    expect(text.slice(0, 25)).toEqual([
      '$ vim -N -u NONE kill.txt',
      '[full-screen vim: its last screen, rendered]',
      'kept',
      ...Array.from({ length: 22 }, () => '~'),
    ]);
    // vim's message line is whatever it said last as the hang-up reached it (its file line, or
    // its "Type :qa" hint when the hang-up came in as an interrupt first).
    expect(text[25]).toMatch(/^("kill\.txt" 1L, 5B|Type {2}:qa {2}and press <Enter> to exit Vim)$/);
    expect(text[26]).toBe('[end of full-screen vim]');
    // What vim says on the normal screen as it goes ("Caught deadly signal HUP", "Finished."),
    // when it still reaches the terminal it was hung up from; and when vim died of the hang-up
    // before the shell's own SIGHUP came (seen under load), the shell's "Hangup" for it and
    // its prompt, redrawn before it ends. Nothing else: no answer to a query, no escape.
    const after = text.slice(27);
    for (const line of after) expect(line).toMatch(/^(Vim: .*|Hangup|\$ ?|)$/);
    expectClean(after);
    await waitFor(() => !existsSync(join(workspace, '.kill.txt.swp')), 5_000, 'no swap file');
  });
});

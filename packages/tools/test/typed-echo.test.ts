// wait_for does not match the terminal's echo of a line the tools typed: `make && echo OK`
// typed into a shell must not read as OK while make still runs.
import { describe, expect, it } from 'vitest';
import { TypedEcho } from '../src/typed-echo.js';
import { closingHarness, idOf } from './helpers.js';

const harness = closingHarness();
const posix = process.platform !== 'win32';
const NUL = '\u0000';
/** A command typed ahead, as a model types it while the last one still runs. */
const AHEAD = "cat > f.txt <<'X'\nline a\nline b\nX\nwc -l f.txt\n";

describe('TypedEcho', () => {
  it('masks the echo of a typed line after its prompt, once, and leaves what follows', () => {
    const echo = new TypedEcho();
    echo.typed('print("done")');
    const text = '>>> print("done")\r\ndone\n>>> ';
    expect(echo.mask(text)).toBe(`>>> ${NUL.repeat(13)}\r\ndone\n>>> `);
    echo.consume(text);
    expect(echo.pending).toBe(false);
  });

  it('tells the echo from the same text printed after it (cat)', () => {
    const echo = new TypedEcho();
    echo.typed('hello there\n');
    expect(echo.mask('hello there\nhello there\n')).toBe(`${NUL.repeat(11)}\nhello there\n`);
  });

  it("takes a text's later lines as echoed only after a prompt: what it starts may read them unechoed", () => {
    const echo = new TypedEcho();
    echo.typed('cat\nhello there\n');
    expect(echo.mask('$ cat\nhello there\n')).toBe(`$ ${NUL.repeat(3)}\nhello there\n`);
  });

  it('follows a block pasted into a REPL through its continuation prompts', () => {
    const echo = new TypedEcho();
    echo.typed('def f(x):\n    return x * 2\n\nprint(f(21))\n');
    const text = '>>> def f(x):\n...     return x * 2\n...\n>>> print(f(21))\n42\n>>> ';
    expect(echo.mask(text)).toBe(
      `>>> ${NUL.repeat(9)}\n... ${NUL.repeat(16)}\n...\n>>> ${NUL.repeat(12)}\n42\n>>> `,
    );
    echo.consume(text);
    expect(echo.pending).toBe(false);
  });

  it('follows several typed lines in order, over blank lines, and masks a half-echoed last line without consuming it', () => {
    const echo = new TypedEcho();
    echo.typed('x = 41');
    echo.typed('print(x + 1)');
    const partial = '>>> x = 41\n\n>>> print(x + 1)';
    expect(echo.mask(partial)).toBe(`>>> ${NUL.repeat(6)}\n\n>>> ${NUL.repeat(12)}`);
    echo.consume(partial);
    expect(echo.pending).toBe(true);
    expect(echo.mask(' print(x + 1)\n42\n')).toBe(` ${NUL.repeat(12)}\n42\n`);
  });

  it("forgets what was typed once the program's own output comes instead of its echo", () => {
    const echo = new TypedEcho();
    echo.typed('make test');
    echo.consume('other output\n');
    expect(echo.pending).toBe(false);
    expect(echo.mask('make test\n')).toBe('make test\n');
  });

  it('keeps at most 32 typed lines of a paste however long, and no line past 1,000 characters', () => {
    const echo = new TypedEcho();
    echo.typed('abc\n'.repeat(262_144));
    const echoes = Array.from({ length: 33 }, () => '>>> abc').join('\n');
    // The 33rd echo line is taken as output: nothing past the 32 kept lines is masked.
    expect(echo.mask(`${echoes}\n`)).toBe(`${'>>> \u0000\u0000\u0000\n'.repeat(32)}>>> abc\n`);
    const long = new TypedEcho();
    long.typed(`${'x'.repeat(1_001)}\n`);
    expect(long.mask(`$ ${'x'.repeat(1_001)}\n`)).toBe(`$ ${'x'.repeat(1_001)}\n`);
  });

  it('follows a short line (y) through the echo but never masks it', () => {
    const echo = new TypedEcho();
    echo.typed('y');
    echo.typed('continue');
    expect(echo.mask('Proceed? [y/N] y\n> continue\n')).toBe(`Proceed? [y/N] y\n> ${NUL.repeat(8)}\n`);
  });

  // Typed while the last command still ran: the kernel echoes each line bare at once, and the
  // shell's line editor echoes them again after its prompts when it reads them.
  const KERNEL = "cat > f.txt <<'X'\r\nline a\r\nline b\r\nX\r\nwc -l f.txt\r\n";
  const REDRAW = "$ cat > f.txt <<'X'\r\n> line a\r\n> line b\r\n> X\r\n$ wc -l f.txt\r\n";
  const m = (n: number) => NUL.repeat(n);

  it('masks both echoes of text typed ahead, and leaves the output after them', () => {
    const echo = new TypedEcho();
    echo.typed('sleep 1', '$');
    echo.consume('$ sleep 1\r\n');
    echo.typed(AHEAD);
    const text = `${KERNEL}${REDRAW}2 f.txt\r\n$ `;
    // `X` is too short to mask (see `y` above); every other echoed line is masked, twice.
    expect(echo.mask(text)).toBe(
      `${m(17)}\r\n${m(6)}\r\n${m(6)}\r\nX\r\n${m(11)}\r\n` +
        `$ ${m(17)}\r\n> ${m(6)}\r\n> ${m(6)}\r\n> X\r\n$ ${m(11)}\r\n2 f.txt\r\n$ `,
    );
    expect(echo.spans(text).settled).toBe(true);
    echo.consume(text);
    expect(echo.pending).toBe(false);
  });

  it('expects the redraw in a later read when the kernel echo came alone', () => {
    const echo = new TypedEcho();
    echo.typed(AHEAD, '$');
    expect(echo.spans(KERNEL).settled).toBe(false);
    echo.consume(KERNEL);
    expect(echo.pending).toBe(true);
    const later = `${REDRAW}2 f.txt\r\n`;
    expect(echo.mask(later)).not.toContain('wc -l f.txt');
    expect(echo.mask(later).endsWith('2 f.txt\r\n')).toBe(true);
    echo.consume(later);
    expect(echo.pending).toBe(false);
  });

  it('takes lines a program in line mode prints after the bare echo as its own (cat)', () => {
    const echo = new TypedEcho();
    echo.typed('hello there\nsecond line\n');
    const text = 'hello there\r\nsecond line\r\nhello there\r\nsecond line\r\n';
    expect(echo.mask(text)).toBe(`${NUL.repeat(11)}\r\n${NUL.repeat(11)}\r\nhello there\r\nsecond line\r\n`);
    echo.consume(text);
    // No prompt known (cat's session): no redraw is awaited.
    expect(echo.pending).toBe(false);
  });

  it("awaits a shell's redraw only after its own prompt: a line ending with what was typed is output", () => {
    const echo = new TypedEcho();
    echo.typed('alice\nbob\n', '$');
    echo.consume('alice\r\nbob\r\n');
    // A loop in the shell (`while read l; do echo "got: $l"; done`) prints them itself.
    const text = 'got: alice\r\ngot: bob\r\n$ alice\r\n';
    expect(echo.mask(text)).toBe(`got: alice\r\ngot: bob\r\n$ ${NUL.repeat(5)}\r\n`);
  });

  it('stops awaiting a redraw past 1,000 lines of other output, or when the next text is typed', () => {
    const echo = new TypedEcho();
    echo.typed('make\n', '$');
    echo.consume('make\r\n');
    expect(echo.pending).toBe(true);
    echo.consume('building\r\n'.repeat(1_000));
    expect(echo.pending).toBe(true);
    echo.consume('one more\r\n');
    expect(echo.pending).toBe(false);
    expect(echo.mask('$ make\r\n')).toBe('$ make\r\n');

    const next = new TypedEcho();
    next.typed('make\n', '$');
    next.consume('make\r\n');
    next.typed('ls\n');
    // The new text's echo is followed; the old redraw is not (`$ make` is output now).
    expect(next.mask('$ make\r\n')).toBe('$ make\r\n');
  });
});

/**
 * A terminal session running `command` with `text` typed (and submitted, unless it ends a line
 * itself), then a wait for `mark` or for the program to wait for input.
 */
async function typedThenWaited(command: string, text: string, mark: string) {
  const h = harness();
  const id = idOf(await h.exec({ command, mode: 'session' }));
  await h.proc({ action: 'paste', session_id: id, text });
  if (!text.endsWith('\n')) await h.proc({ action: 'submit', session_id: id });
  const waiting = await h.proc({ action: 'wait_for', session_id: id, pattern: mark, input: true });
  // Enter answers the program's read; then its own line must match.
  await h.proc({ action: 'submit', session_id: id });
  const printed = await h.proc({ action: 'wait_for', session_id: id, pattern: `^${mark}$` });
  return { waiting: waiting.data.wait, printed: printed.data.wait, shown: waiting.text };
}

describe('wait_for and the echo of what was typed', () => {
  it.runIf(posix)(
    'does not match a typed line in the echo: the program waits for input, then its own line matches',
    async () => {
      const r = await typedThenWaited('bash --norc --noprofile', 'read -r _ && echo BUILD_OK', 'BUILD_OK');
      expect(r.waiting?.outcome).toBe('input');
      expect(r.shown).toContain('read -r _ && echo BUILD_OK');
      expect(r.printed).toMatchObject({ outcome: 'matched', match: 'BUILD_OK' });
    },
  );

  it.runIf(posix)(
    "does not match a later line of a block pasted into Python's REPL in its echo",
    async () => {
      const r = await typedThenWaited('python3 -q -i', "x = 1\ninput(); print('PY_DONE')\n", 'PY_DONE');
      expect(r.waiting?.outcome).toBe('input');
      expect(r.printed).toMatchObject({ outcome: 'matched', match: 'PY_DONE' });
    },
  );

  // Two calls at once: a poll may take the echo away from a wait; the wait must still wait.
  it.runIf(posix)("matches the program's line, not the echo, with a poll racing the wait", async () => {
    const h = harness();
    const id = idOf(await h.exec({ command: 'bash --norc --noprofile', mode: 'session' }));
    for (let round = 0; round < 3; round++) {
      await h.proc({ action: 'paste', session_id: id, text: `read -r _ && echo DONE_${round}` });
      await h.proc({ action: 'submit', session_id: id });
      const [waited, polled] = await Promise.all([
        h.proc({ action: 'wait_for', session_id: id, pattern: `DONE_${round}`, input: true }),
        h.proc({ action: 'poll', session_id: id, timeout: 100 }),
      ]);
      expect(waited.data.wait?.outcome, polled.text).toBe('input');
      await h.proc({ action: 'submit', session_id: id });
      const done = await h.proc({ action: 'wait_for', session_id: id, pattern: `^DONE_${round}$` });
      expect(done.data.wait).toMatchObject({ outcome: 'matched', match: `DONE_${round}` });
    }
  });

  it.runIf(posix)('matches neither echo of a command typed while the last one still ran', async () => {
    const h = harness();
    const id = idOf(await h.exec({ command: 'bash --norc --noprofile', mode: 'session' }));
    await h.proc({ action: 'write', session_id: id, data: 'echo STARTED; sleep 1; echo FIRST_DONE\n' });
    await h.proc({ action: 'wait_for', session_id: id, pattern: '^STARTED$' });
    // Typed while sleep runs: the kernel echoes it at once, bash's line editor again when it
    // reads it (typed after sleep ended, under load, bash alone echoes it: the same answer).
    await h.proc({ action: 'write', session_id: id, data: AHEAD });
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^.*f\\.txt$' });
    expect(r.data.wait, r.text).toMatchObject({ outcome: 'matched', match: '2 f.txt' });
  });

  it.runIf(posix)('says when only the echo matched, not that an earlier reply showed it', async () => {
    const h = harness();
    const id = idOf(await h.exec({ command: 'bash --norc --noprofile', mode: 'session' }));
    await h.proc({ action: 'paste', session_id: id, text: 'exit 3 # the_marker' });
    await h.proc({ action: 'submit', session_id: id });
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: 'the_marker' });
    expect(r.data.wait?.outcome).toBe('exited');
    expect(r.text).toContain(
      "/the_marker/ matched only the terminal's echo of the line typed, which is not the program's output.",
    );
    expect(r.text).not.toContain('an earlier reply returned');
  });

  it.runIf(posix)('matches what a daemon prints on pipes as before (nothing is echoed there)', async () => {
    const h = harness();
    const id = idOf(await h.exec({ command: 'read -r line; echo "got $line"; sleep 30', mode: 'daemon' }));
    await h.proc({ action: 'write', session_id: id, data: 'got it\n' });
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: 'got got it' });
    expect(r.data.wait?.outcome).toBe('matched');
  });
});

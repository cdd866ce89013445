import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { TerminalScreen } from '../src/index.js';

// retire() is the last look at a screen: it must give what renderNew() then renderFull() give,
// byte for byte, whether it reads the emulator or works the rows out from held plain text.
// The reference screen hands every line to the parser at once (reading the cursor does), so it
// never holds anything back and always parses.

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

function feedEager(screen: TerminalScreen, chunk: string): void {
  for (const line of chunk.split(/(?<=\n)/)) {
    screen.feed(line);
    void screen.cursor;
  }
}

// The texts; `redrawn` is checked where it is known (held text is read as redrawing nothing).
const texts = ({ delta, full }: { delta: string; full: string }) => ({ delta, full });

async function lastLook(screen: TerminalScreen): Promise<{ delta: string; full: string }> {
  const delta = await screen.renderNew();
  return { delta, full: await screen.renderFull() };
}

// Before the flood: state that a render worked out from the text alone must not get wrong.
const SEQUENCES = [
  '\x1b[31m',
  '\x1b[44m',
  '\x1b[H',
  '\x1b[2;3H',
  '\x1b[2J',
  '\x1b[K',
  '\x1b[2;4r',
  '\x1b[r',
  '\x1b[?1049h',
  '\x1b[?1049l',
  '\x1b[4h',
  '\x1b[4l',
  '\x1b[?7l',
  '\x1b[?7h',
  '\x1b[20h',
  '\x1b[20l',
  '\x1b(0',
  '\x1b(B',
  '\x0e',
  '\x0f',
  '\x1b]0;unterminated ',
  '\x1b[3',
  '\x1bc',
  '你',
  'wide row\r\n',
];
// Plain lines of every shape: empty, exactly the width (the next line feed lands on the last
// column), wrapping, rewritten after a CR, trailing spaces, bare and reversed line ends, tabs.
const body = fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'x', 'q'), maxLength: 30 });
const end = fc.constantFrom('\r\n', '\r\n', '\r\n', '\n', '\n\r', '\r', '');
const line = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(body, end).map(([text, e]) => text + e) },
  { weight: 1, arbitrary: fc.tuple(body, body).map(([a, b]) => `${a}\r${b}\r\n`) },
  { weight: 1, arbitrary: fc.constantFrom('\t', 'a\tb\r\n') },
);
const flood = fc.array(line, { minLength: 1, maxLength: 60 }).map((lines) => lines.join(''));
const step = fc.oneof(
  { weight: 4, arbitrary: flood },
  { weight: 2, arbitrary: fc.constantFrom(...SEQUENCES) },
  { weight: 1, arbitrary: fc.constant('turn') },
  { weight: 1, arbitrary: fc.constant('read') },
);
const size = fc.record({
  cols: fc.integer({ min: 2, max: 12 }),
  rows: fc.integer({ min: 1, max: 5 }),
  scrollback: fc.integer({ min: 1, max: 8 }),
});

describe('TerminalScreen.retire()', () => {
  it('gives what renderNew() then renderFull() give, for any output and reads before it', async () => {
    await fc.assert(
      fc.asyncProperty(size, fc.array(step, { minLength: 1, maxLength: 25 }), async (dims, steps) => {
        const retiring = new TerminalScreen(dims);
        const eager = new TerminalScreen(dims);
        try {
          for (const s of steps) {
            if (s === 'turn') await turn();
            else if (s === 'read') expect(await retiring.renderNew()).toBe(await eager.renderNew());
            else {
              retiring.feed(s);
              feedEager(eager, s);
            }
          }
          expect(texts(await retiring.retire())).toEqual(await lastLook(eager));
        } finally {
          retiring.dispose();
          eager.dispose();
        }
      }),
      { numRuns: propertyRuns(600) },
    );
  });

  // A flood after a turn is the case the text alone renders: every row the buffer keeps is
  // written by its tail. Each line shape here is one the emulator handles in its own way.
  it.each([
    ['CRLF lines', (i: number) => `line ${i}\r\n`],
    ['lines exactly the width, then a bare line feed', (i: number) => `${'w'.repeat(10)}\n${i}\r\n`],
    ['lines wrapping twice', (i: number) => `${String(i).padEnd(25, 'z')}\r\n`],
    ['lines rewritten after a CR', (i: number) => `long line ${i}\rshort\r\n`],
    ['trailing spaces and empty lines', (i: number) => `${i}   \r\n\r\n`],
    ['reversed line ends', (i: number) => `${i}\n\r`],
  ])('renders a held flood of %s without parsing it, as parsing it does', async (_name, make) => {
    const dims = { cols: 10, rows: 4, scrollback: 20 };
    const retiring = new TerminalScreen(dims);
    const eager = new TerminalScreen(dims);
    try {
      for (const screen of [retiring, eager]) screen.feed('\x1b[1mbold\x1b[0m\r\nprompt$ ');
      expect(await retiring.renderNew()).toBe(await eager.renderNew());
      const text = Array.from({ length: 200 }, (_, i) => make(i)).join('');
      // What the emulator is handed from here on: nothing of the flood, if its rows come from the text.
      const parser = (retiring as unknown as { terminal: { write: (data: string) => void } }).terminal;
      const write = vi.spyOn(parser, 'write');
      retiring.feed(text);
      feedEager(eager, text);
      expect(texts(await retiring.retire())).toEqual(await lastLook(eager));
      expect(write).not.toHaveBeenCalled();
    } finally {
      retiring.dispose();
      eager.dispose();
    }
  });

  // Modes that change what plain text prints, left on before a flood the text alone would render.
  it.each([
    ['autowrap off', '\x1b[?7l'],
    ['insert mode', '\x1b[4h'],
    ['line feed as new line', '\x1b[20h'],
    ['DEC graphics in G0', '\x1b(0'],
    ['DEC graphics shifted in from G1', '\x1b)0\x0e'],
    ['a smaller screen after a resize', 'resize'],
  ])('parses the held flood under %s, as the emulator prints it', async (_name, mode) => {
    const dims = { cols: 10, rows: 4, scrollback: 20 };
    const retiring = new TerminalScreen(dims);
    const eager = new TerminalScreen(dims);
    try {
      for (const screen of [retiring, eager]) {
        screen.feed('a\r\nb\r\nc\r\nd\r\ne');
        if (mode === 'resize') screen.resize(10, 2);
        else screen.feed(mode);
      }
      await turn();
      const text = Array.from({ length: 100 }, (_, i) => `qqq long line ${i}\rnew\n`).join('');
      retiring.feed(text);
      feedEager(eager, text);
      expect(texts(await retiring.retire())).toEqual(await lastLook(eager));
    } finally {
      retiring.dispose();
      eager.dispose();
    }
  });

  it('disposes the screen: later reads throw ERR_PROCESS_STATE, dispose() stays idempotent', async () => {
    const screen = new TerminalScreen({ cols: 10, rows: 3 });
    screen.feed('done\r\n');
    expect(await screen.retire()).toEqual({ delta: 'done', full: 'done', screen: 'done', redrawn: 0 });
    await expect(screen.renderFull()).rejects.toMatchObject({ code: 'ERR_PROCESS_STATE' });
    await expect(screen.retire()).rejects.toMatchObject({ code: 'ERR_PROCESS_STATE' });
    expect(() => screen.dispose()).not.toThrow();
  });
});

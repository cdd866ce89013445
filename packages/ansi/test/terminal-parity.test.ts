import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripAnsi, TerminalModeTracker } from '../src/index.js';
import { logicalLines, terminalAfter } from './helpers/xterm.js';

// "As a terminal would" checked against a terminal: xterm.js, which the screen package runs.
// The generators stay inside what both models agree on by design (see README, Choices): no
// tabs, no wide characters, no cursor movement across lines, no VT/FF, no SS2/SS3, no charset
// switching; everything else a line-oriented program prints is fair game.

// Wide enough that no generated line reaches the margin: how a terminal links wrapped rows
// into logical lines (an erased row loses its link) is not something a text stream can show.
// The margin itself is covered against observed xterm behaviour in strip.test.ts.
const COLS = 400;

const param = (max: number) => fc.option(fc.integer({ min: 0, max }), { nil: undefined }).map((p) => p ?? '');
const word = fc.stringMatching(/^[a-zéüß ]{1,6}$/);
// xterm.js aborts a DCS/SOS/PM/APC string at its first non-ASCII character and prints the
// rest; ECMA-48 (and this package) keep the string going to its ST. Payloads are ASCII here.
const asciiWord = fc.stringMatching(/^[a-z ]{1,6}$/);

const lineToken = fc.oneof(
  { weight: 6, arbitrary: word },
  { weight: 3, arbitrary: fc.constantFrom('\r', '\n', '\r\n', '\b', '\b\b\b') },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.integer({ min: 0, max: 107 }), { maxLength: 3 })
      .map((ps) => `\x1b[${ps.join(';')}m`),
  },
  { weight: 2, arbitrary: fc.constantFrom('', '0', '1', '2').map((p) => `\x1b[${p}K`) },
  {
    weight: 2,
    arbitrary: fc.tuple(param(130), fc.constantFrom('G', '`', 'C', 'D')).map(([p, f]) => `\x1b[${p}${f}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('0', '2', '8;;', '133;A'), word, fc.constantFrom('\x07', '\x1b\\', '\x9c'))
      .map(([kind, body, end]) => `\x1b]${kind}${body}${end}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('\x1bP', '\x1b_', '\x1b^', '\x1bX', '\x90'), asciiWord)
      .map(([s, b]) => `${s}q${b}\x1b\\`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('\x9b1m', '\x1b=', '\x1b>', '\x1b(B', '\x1b[3\x18', '\x00', '\x07', '\x7f'),
  },
);

const program = fc.array(lineToken, { maxLength: 40 }).map((tokens) => tokens.join(''));

function withoutTrailingBlankLines(lines: string[]): string[] {
  const out = [...lines];
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

describe('stripAnsi against xterm.js', () => {
  it('shows each line as the terminal does', async () => {
    await fc.assert(
      fc.asyncProperty(program, async (input) => {
        const terminal = await terminalAfter(input, {
          cols: COLS,
          rows: 80,
          scrollback: 1000,
          convertEol: true,
        });
        try {
          const expected = withoutTrailingBlankLines(logicalLines(terminal));
          const actual = withoutTrailingBlankLines(
            stripAnsi(input, { maxLineLength: COLS })
              .split('\n')
              .map((line) => line.trimEnd()),
          );
          expect(actual).toEqual(expected);
        } finally {
          terminal.dispose();
        }
      }),
      { numRuns: propertyRuns(400) },
    );
  });
});

// The mode tracker's generator covers the whole input space a VT parser distinguishes, not
// only well-formed DECSET: every digit, every prefix, intermediate and final byte, C0, DEL, C1
// and non-ASCII characters inside sequences, ESC restarting a sequence, sequences cut off by
// the end of the input, and string sequences (OSC, DCS, SOS, PM, APC) around mode changes.
const char = (from: number, to: number) =>
  fc.integer({ min: from, max: to }).map((c) => String.fromCharCode(c));
const anyByte = fc.oneof(
  { weight: 3, arbitrary: char(0x00, 0x1f) }, // C0
  { weight: 6, arbitrary: char(0x20, 0x7e) }, // printable ASCII: intermediates, parameters, finals
  { weight: 1, arbitrary: fc.constant('\x7f') }, // DEL
  { weight: 2, arbitrary: char(0x80, 0x9f) }, // C1
  { weight: 1, arbitrary: char(0xa0, 0xff) },
  { weight: 1, arbitrary: fc.constantFrom('é', '€', '中', '\u{1f600}') },
);
// Parameters, weighted towards the two modes tracked and their neighbours.
const paramText = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom('1', '2004', '25', '9', '2009', '20040', '01', '02004', '65536', '67540'),
  },
  { weight: 2, arbitrary: fc.stringMatching(/^[0-9]{1,5}$/) },
  { weight: 1, arbitrary: fc.constantFrom('', '1:2', '2004:1', ':', '::2004') },
);
// Mostly the two CSI introducers; sometimes an ESC sequence that is not CSI, or none, in front
// of the same body (`ESC=?2004h` is keypad mode, then text).
const introducer = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('\x1b[', '\x9b') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', '\x1b', '\x1b=', '\x1b>', '\x1b]', '\x1bP', '\x1b(', '\x1b#', '\x1b '),
  },
);
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, weight: number) =>
  fc.oneof({ weight: 10 - weight, arbitrary: fc.constant(null) }, { weight, arbitrary });
const csiSequence = fc
  .tuple(
    introducer,
    fc.constantFrom('', '?', '?', '?', '>', '<', '=', '??', '?>'),
    fc.array(paramText, { minLength: 0, maxLength: 4 }),
    fc.constantFrom('', '', '', '$', ' ', '!', '"', "'", '#', '$ '),
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom('h', 'l') }, { weight: 2, arbitrary: char(0x40, 0x7e) }),
    // In three sequences of ten, a stray byte somewhere (the position is a fraction of its length).
    sometimes(fc.tuple(anyByte, fc.double({ min: 0, max: 1, noNaN: true })), 3),
    // In one of six, cut off before its end.
    sometimes(fc.double({ min: 0, max: 1, noNaN: true }), 2),
  )
  .map(([intro, prefix, params, intermediate, final, stray, cut]) => {
    let text = `${intro}${prefix}${params.join(';')}${intermediate}${final}`;
    if (stray !== null) {
      const at = Math.min(text.length, intro.length + Math.floor(stray[1] * (text.length - intro.length)));
      text = text.slice(0, at) + stray[0] + text.slice(at);
    }
    if (cut !== null) text = text.slice(0, Math.floor(cut * text.length));
    return text;
  });
const stringSequence = fc
  .tuple(
    fc.constantFrom('\x1b]', '\x9d', '\x1bP', '\x90', '\x1bX', '\x98', '\x1b^', '\x9e', '\x1b_', '\x9f'),
    fc.array(fc.oneof(anyByte, csiSequence), { maxLength: 4 }),
    fc.constantFrom('\x07', '\x1b\\', '\x9c', ''),
  )
  .map(([intro, body, end]) => `${intro}${body.join('')}${end}`);
const modeToken = fc.oneof(
  { weight: 8, arbitrary: csiSequence },
  { weight: 3, arbitrary: fc.array(anyByte, { minLength: 1, maxLength: 6 }).map((bytes) => bytes.join('')) },
  { weight: 2, arbitrary: stringSequence },
  // ESC followed by anything: ESC c (RIS), ESC = / ESC > (keypad), charset designations, ESC ESC.
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom('\x1b', '\x1b\x1b', '\x1b('), anyByte).map(([a, b]) => a + b),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\x1bc',
      '\x1b[!p',
      '\x1b[?!p',
      '\x1b(c',
      '\x1b\x1bc',
      '\x1b[!5p',
      '\x1b[?1;2c',
      'text\r\n',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.nat({ max: 40 }), fc.constantFrom('1', '2004'), fc.constantFrom('h', 'l'))
      .map(([n, mode, final]) => `\x1b[?${'5;'.repeat(n)}${mode}${final}`),
  },
);

// Inputs that each tell a plausible tracker bug from the real thing, checked against xterm.js
// whatever the property's size (it runs at a tenth under mutation testing).
const MODE_EDGES = [
  '\x1b[?9;2004h', // the digit 9
  '\x1b[?1;2004h\x1b[?1;2c', // an echoed DA reply: final c changes nothing
  '\x1b[?20\x7f04h', // DEL inside a sequence is ignored
  '\x1b[?1\x1b[?2004h', // ESC restarts a sequence
  '\x9b?2004h\x1b[?20\x9b?1h', // C1 CSI, also inside a sequence
  '\x1b=?2004h', // ESC = is keypad mode, then text
  '\x1b(?2004h\x1b#?1h', // ESC with an intermediate, then text
  '\x1b[?2004$h\x1b[?1 h', // an intermediate makes it another sequence
  '\x1b[?2004h\x1b[?2004;$p\x1b[!p', // soft reset after a DECRQM
  '\x1b[?2004h\x1b[?!p\x1b[?1h\x1b[>!p', // not soft resets
  '\x1b[?1h\x1b[1!p', // a parameter before the intermediate still resets
  '\x1b[?1;2004h\x1b[!q\x1b[4$p\x1b[p\x1b[61"p', // other finals after !, other p sequences
  '\x1b[?1;2004h\x1b[ !p\x1b[$!p\x1b[!!p', // two intermediates: not DECSTR
  '\x1b[?1;2004h\x1b[!1p\x1b[!;p', // a parameter after the intermediate: not DECSTR
  '\x1b[?1h\x85?2004h\x1b[?20\x90?2004h', // C1 controls other than CSI end a sequence
  '\x1b[?2004:1h\x1b[?1:2004h', // sub-parameters
  '\x1b[?2004h\x1b[2004l\x1b[>1h\x1b[?>2004l', // no ? or two prefixes: not DECRST
  '\x1b[?1;2004h\x1b[?2004\x1a\x1b[?1\x18l', // SUB and CAN abort
  '\x1b[?1;2004h\x1bc', // RIS
  '\x1b[?1\x0a;2004h', // C0 inside is executed, the sequence goes on
  '\x1b[?/1h\x1b[?1/h', // an intermediate before a parameter
  '\x1b[?1h\x1b[?1;"l\x1b[?2004h\x1b[?2004$\x1b[?1l', // intermediates
];

describe('TerminalModeTracker against xterm.js', () => {
  it.each(MODE_EDGES)('ends in the modes xterm.js does after %j', async (input) => {
    const terminal = await terminalAfter(input, { cols: 80, rows: 24 });
    try {
      const tracker = new TerminalModeTracker();
      tracker.feed(input);
      expect({ paste: tracker.bracketedPaste, keys: tracker.applicationCursorKeys }).toEqual({
        paste: terminal.modes.bracketedPasteMode,
        keys: terminal.modes.applicationCursorKeysMode,
      });
    } finally {
      terminal.dispose();
    }
  });

  // CPU-bound: the timeout guards against a hang, with room for a machine loaded many times over.
  it('reports the modes xterm.js ends up in, whatever the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(modeToken, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (tokens, cuts) => {
          const input = tokens.join('');
          const terminal = await terminalAfter(input, { cols: 80, rows: 24 });
          try {
            const tracker = new TerminalModeTracker();
            const points = [...new Set(cuts.map((cut) => cut % (input.length + 1)))].sort((a, b) => a - b);
            let start = 0;
            for (const point of [...points, input.length]) {
              tracker.feed(input.slice(start, point));
              start = point;
            }
            expect({ paste: tracker.bracketedPaste, keys: tracker.applicationCursorKeys }).toEqual({
              paste: terminal.modes.bracketedPasteMode,
              keys: terminal.modes.applicationCursorKeysMode,
            });
          } finally {
            terminal.dispose();
          }
        },
      ),
      { numRuns: propertyRuns(3000) },
    );
  }, 240_000);
});

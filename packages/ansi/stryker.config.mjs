import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// large-input.test.ts (10 MB lines, a 60 s budget) times out under Stryker's instrumentation;
// it guards speed and memory on huge inputs, and the other suites cover the same logic.
export default mutationConfig('ansi', {
  breakAt: 97,
  tests: [
    'test/dsr.test.ts',
    'test/mode-tracker.test.ts',
    'test/stream.test.ts',
    'test/strip.test.ts',
    'test/terminal-parity.test.ts',
  ],
});

// Surviving mutants no test can tell from the original, each named by file, line, column, mutator
// and replacement (tooling/scripts/verify-static.mjs sets aside exactly those; a comment above each
// group quotes its source line). Each was also run against the original on 100,000 random inputs
// (split into random chunks, at widths 1 to 4,096) without a difference; see the README.
const FAST_PATH = 'chooses between a fast path and the general one, which give the same result';
const EMPTY_SLICE = 'the other branch slices or concatenates an empty string, which gives the same string';
const SET_BEFORE_READ =
  'an initial value overwritten before any read: the per-sequence fields are read only in the CSI state, which is entered only through beginCsi(), which sets them';
const AS_GROUND =
  "the tracker's ESC-intermediate state acts as GROUND: from both only ESC and the C1 CSI start anything and no other byte changes a mode, so entering, leaving or staying in it changes nothing";
const PAST_THE_END =
  'past the end of the row a step moves one unit, as the other branch counts, so the result is the same';
export const equivalent = [
  // dsr.ts
  // if (!chunk.includes('6n')) return { text: chunk, count: 0 };
  {
    file: 'src/dsr.ts',
    line: 31,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: `${FAST_PATH}: without it replace() finds no query in a chunk without "6n" and returns the text, count 0`,
  },
  {
    file: 'src/dsr.ts',
    line: 31,
    column: 23,
    mutator: 'StringLiteral',
    replacement: '""',
    why: `${FAST_PATH}: without it replace() finds no query in a chunk without "6n" and returns the text, count 0`,
  },
  // const text = held === '' ? chunk : held + chunk;
  {
    file: 'src/dsr.ts',
    line: 57,
    column: 20,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: `${EMPTY_SLICE} ('' + chunk; held is at most a 4-unit query prefix, never "Stryker was here!")`,
  },
  {
    file: 'src/dsr.ts',
    line: 57,
    column: 29,
    mutator: 'StringLiteral',
    replacement: '"Stryker was here!"',
    why: `${EMPTY_SLICE} ('' + chunk; held is at most a 4-unit query prefix, never "Stryker was here!")`,
  },
  // held = keep === 0 ? '' : text.slice(text.length - keep);
  {
    file: 'src/dsr.ts',
    line: 59,
    column: 14,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: `${EMPTY_SLICE} (text.slice(text.length - 0) is '')`,
  },
  // return stripDsrRequests(keep === 0 ? text : text.slice(0, text.length - keep));
  {
    file: 'src/dsr.ts',
    line: 60,
    column: 31,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: `${EMPTY_SLICE} (text.slice(0, text.length - 0) is text)`,
  },
  // mode-tracker.ts
  // private ignored = false;
  {
    file: 'src/mode-tracker.ts',
    line: 39,
    column: 21,
    mutator: 'BooleanLiteral',
    replacement: 'true',
    why: SET_BEFORE_READ,
  },
  // private started = false;
  {
    file: 'src/mode-tracker.ts',
    line: 40,
    column: 21,
    mutator: 'BooleanLiteral',
    replacement: 'true',
    why: SET_BEFORE_READ,
  },
  // private inSubParam = false;
  {
    file: 'src/mode-tracker.ts',
    line: 42,
    column: 24,
    mutator: 'BooleanLiteral',
    replacement: 'true',
    why: SET_BEFORE_READ,
  },
  // private namesCursorKeys = false;
  {
    file: 'src/mode-tracker.ts',
    line: 44,
    column: 29,
    mutator: 'BooleanLiteral',
    replacement: 'true',
    why: SET_BEFORE_READ,
  },
  // private namesPaste = false;
  {
    file: 'src/mode-tracker.ts',
    line: 45,
    column: 24,
    mutator: 'BooleanLiteral',
    replacement: 'true',
    why: SET_BEFORE_READ,
  },
  // if (nextEsc !== -1 && nextEsc < i) nextEsc = chunk.indexOf(ESC_TEXT, i);
  {
    file: 'src/mode-tracker.ts',
    line: 67,
    column: 13,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '67:42',
    why: 'speed only: searching again from i finds the same next ESC (the cached one is at or after i, or there is none)',
  },
  {
    file: 'src/mode-tracker.ts',
    line: 67,
    column: 13,
    mutator: 'LogicalOperator',
    replacement: 'nextEsc !== -1 || nextEsc < i',
    why: 'speed only: searching again from i finds the same next ESC (the cached one is at or after i, or there is none)',
  },
  {
    file: 'src/mode-tracker.ts',
    line: 67,
    column: 13,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '67:27',
    why: 'speed only: searching again from i finds the same next ESC (the cached one is at or after i, or there is none)',
  },
  {
    file: 'src/mode-tracker.ts',
    line: 67,
    column: 31,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'speed only: searching again from i finds the same next ESC (the cached one is at or after i, or there is none)',
  },
  {
    file: 'src/mode-tracker.ts',
    line: 67,
    column: 31,
    mutator: 'EqualityOperator',
    replacement: 'nextEsc <= i',
    why: 'speed only: searching again from i finds the same next ESC (the cached one is at or after i, or there is none)',
  },
  // if (nextCsi !== -1 && nextCsi < i) nextCsi = chunk.indexOf(CSI_TEXT, i);
  {
    file: 'src/mode-tracker.ts',
    line: 68,
    column: 13,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '68:42',
    why: 'speed only: searching again from i finds the same next CSI (the cached one is at or after i, or there is none)',
  },
  {
    file: 'src/mode-tracker.ts',
    line: 68,
    column: 13,
    mutator: 'LogicalOperator',
    replacement: 'nextCsi !== -1 || nextCsi < i',
    why: 'speed only: searching again from i finds the same next CSI (the cached one is at or after i, or there is none)',
  },
  {
    file: 'src/mode-tracker.ts',
    line: 68,
    column: 13,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '68:27',
    why: 'speed only: searching again from i finds the same next CSI (the cached one is at or after i, or there is none)',
  },
  {
    file: 'src/mode-tracker.ts',
    line: 68,
    column: 31,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'speed only: searching again from i finds the same next CSI (the cached one is at or after i, or there is none)',
  },
  {
    file: 'src/mode-tracker.ts',
    line: 68,
    column: 31,
    mutator: 'EqualityOperator',
    replacement: 'nextCsi <= i',
    why: 'speed only: searching again from i finds the same next CSI (the cached one is at or after i, or there is none)',
  },
  // if (c >= C1_FIRST) {
  {
    file: 'src/mode-tracker.ts',
    line: 83,
    column: 11,
    mutator: 'EqualityOperator',
    replacement: 'c > C1_FIRST',
    why: '0x80 then takes the path of a printable byte, which from every state ends in GROUND with no mode change (as a CSI final it is not h, l or p), as the C1 path does',
  },
  // if (c < 0x30) state = ESCAPE_INTERMEDIATE;
  {
    file: 'src/mode-tracker.ts',
    line: 89,
    column: 13,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: AS_GROUND,
  },
  {
    file: 'src/mode-tracker.ts',
    line: 89,
    column: 13,
    mutator: 'EqualityOperator',
    replacement: 'c <= 0x30',
    why: AS_GROUND,
  },
  // } else if (state === ESCAPE_INTERMEDIATE) {
  {
    file: 'src/mode-tracker.ts',
    line: 91,
    column: 49,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: AS_GROUND,
  },
  // if (c >= 0x30) state = GROUND;
  {
    file: 'src/mode-tracker.ts',
    line: 92,
    column: 13,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: AS_GROUND,
  },
  {
    file: 'src/mode-tracker.ts',
    line: 92,
    column: 13,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: AS_GROUND,
  },
  {
    file: 'src/mode-tracker.ts',
    line: 92,
    column: 13,
    mutator: 'EqualityOperator',
    replacement: 'c > 0x30',
    why: AS_GROUND,
  },
  {
    file: 'src/mode-tracker.ts',
    line: 92,
    column: 13,
    mutator: 'EqualityOperator',
    replacement: 'c < 0x30',
    why: AS_GROUND,
  },
  // } else if (c >= 0x40) {
  {
    file: 'src/mode-tracker.ts',
    line: 93,
    column: 18,
    mutator: 'EqualityOperator',
    replacement: 'c > 0x40',
    why: "'@' read as a CSI byte instead of a final: the sequence goes on ignored (or with '@' as its prefix), so the byte that ends it is neither DECSET/DECRST (needs ?) nor DECSTR (needs no prefix); after a real '@' the same bytes are text",
  },
  // this.intermediate = this.intermediate === 0 ? c : -1;
  {
    file: 'src/mode-tracker.ts',
    line: 118,
    column: 57,
    mutator: 'UnaryOperator',
    replacement: '+1',
    why: "the mark for several intermediates is only compared with 0 and '!' (0x21): +1 is neither, as -1 is",
  },
  // pending-line.ts
  // get isClear(): boolean {
  {
    file: 'src/pending-line.ts',
    line: 24,
    column: 26,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: `${FAST_PATH}: strip.ts then writes a complete line through the row model, which on a clear row gives the line`,
  },
  // if (col === row.length) this.text = row + piece;
  {
    file: 'src/pending-line.ts',
    line: 38,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: FAST_PATH,
  },
  // else if (col > row.length) this.text = row + ' '.repeat(col - row.length) + piece;
  {
    file: 'src/pending-line.ts',
    line: 39,
    column: 16,
    mutator: 'EqualityOperator',
    replacement: 'col >= row.length',
    why: 'col === row.length is taken by the line above',
  },
  // if (this.col >= this.width) this.cursorTo(this.width - 1);
  {
    file: 'src/pending-line.ts',
    line: 52,
    column: 47,
    mutator: 'ArithmeticOperator',
    replacement: 'this.width + 1',
    why: 'cursorTo() stops at the margin (width - 1) for any column at or past it, so width + 1 lands on the same cell',
  },
  {
    file: 'src/pending-line.ts',
    line: 88,
    column: 47,
    mutator: 'ArithmeticOperator',
    replacement: 'this.width + 1',
    why: 'cursorTo() stops at the margin (width - 1) for any column at or past it, so width + 1 lands on the same cell',
  },
  // if (col > this.text.length) this.col = col - 1;
  {
    file: 'src/pending-line.ts',
    line: 54,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'past the end of the text the other branch also steps back one: charCodeAt there is NaN, never a surrogate',
  },
  // col >= 2 &&
  {
    file: 'src/pending-line.ts',
    line: 57,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '57:17',
    why: 'at col 1 the unit before the previous one is charCodeAt(-1), NaN, never a high surrogate',
  },
  // while (cells > 0 && index < row.length) {
  {
    file: 'src/pending-line.ts',
    line: 70,
    column: 25,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: `${PAST_THE_END} (index + cells), and the stop at the margin is the same`,
  },
  {
    file: 'src/pending-line.ts',
    line: 70,
    column: 25,
    mutator: 'EqualityOperator',
    replacement: 'index <= row.length',
    why: `${PAST_THE_END} (index + cells), and the stop at the margin is the same`,
  },
  // if (col < row.length) this.text = row.slice(0, col);
  {
    file: 'src/pending-line.ts',
    line: 97,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: `${EMPTY_SLICE} (row.slice(0, col) with col at or past the end is the row)`,
  },
  {
    file: 'src/pending-line.ts',
    line: 97,
    column: 11,
    mutator: 'EqualityOperator',
    replacement: 'col <= row.length',
    why: `${EMPTY_SLICE} (row.slice(0, col) with col at or past the end is the row)`,
  },
  // this.out.push(blanks > 0 ? this.text + ' '.repeat(blanks) : this.text);
  {
    file: 'src/pending-line.ts',
    line: 124,
    column: 19,
    mutator: 'EqualityOperator',
    replacement: 'blanks >= 0',
    why: "' '.repeat(0) adds nothing",
  },
  // return this.col <= row.length
  {
    file: 'src/pending-line.ts',
    line: 131,
    column: 12,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: `${PAST_THE_END}: countCodePoints() past the end counts one per unit, what the other branch adds; at the end both count the row`,
  },
  {
    file: 'src/pending-line.ts',
    line: 131,
    column: 12,
    mutator: 'EqualityOperator',
    replacement: 'this.col < row.length',
    why: `${PAST_THE_END}: countCodePoints() past the end counts one per unit, what the other branch adds; at the end both count the row`,
  },
  // for (let left = count; left > 0 && index < row.length; left--) index = nextCodePoint(row, index);
  {
    file: 'src/pending-line.ts',
    line: 140,
    column: 40,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'an index past the end of the row slices to the same empty rest',
  },
  {
    file: 'src/pending-line.ts',
    line: 140,
    column: 40,
    mutator: 'EqualityOperator',
    replacement: 'index <= row.length',
    why: 'an index past the end of the row slices to the same empty rest',
  },
  // strip.ts
  // private csiParamDone = false;
  {
    file: 'src/strip.ts',
    line: 83,
    column: 26,
    mutator: 'BooleanLiteral',
    replacement: 'true',
    why: SET_BEFORE_READ,
  },
  // private csiPlain = true;
  {
    file: 'src/strip.ts',
    line: 84,
    column: 22,
    mutator: 'BooleanLiteral',
    replacement: 'false',
    why: SET_BEFORE_READ,
  },
  // let text = this.carry === '' ? chunk : this.carry + chunk;
  {
    file: 'src/strip.ts',
    line: 97,
    column: 16,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: `${EMPTY_SLICE} ('' + chunk; the carry is '' or one high surrogate, never "Stryker was here!")`,
  },
  {
    file: 'src/strip.ts',
    line: 97,
    column: 31,
    mutator: 'StringLiteral',
    replacement: '"Stryker was here!"',
    why: `${EMPTY_SLICE} ('' + chunk; the carry is '' or one high surrogate, never "Stryker was here!")`,
  },
  // if (text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1))) {
  {
    file: 'src/strip.ts',
    line: 101,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '101:24',
    why: 'for empty text charCodeAt(-1) is NaN, never a high surrogate',
  },
  {
    file: 'src/strip.ts',
    line: 101,
    column: 9,
    mutator: 'EqualityOperator',
    replacement: 'text.length >= 0',
    why: 'for empty text charCodeAt(-1) is NaN, never a high surrogate',
  },
  // if (this.carry !== '') this.run(this.carry);
  {
    file: 'src/strip.ts',
    line: 110,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: "running the empty carry does nothing (it is '' or one high surrogate)",
  },
  {
    file: 'src/strip.ts',
    line: 110,
    column: 24,
    mutator: 'StringLiteral',
    replacement: '"Stryker was here!"',
    why: "running the empty carry does nothing (it is '' or one high surrogate)",
  },
  // if (out.length === 0) return '';
  {
    file: 'src/strip.ts',
    line: 119,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: "[].join('') is ''",
  },
  // const text = out.length === 1 ? (out[0] as string) : out.join('');
  {
    file: 'src/strip.ts',
    line: 120,
    column: 18,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'joining one string gives that string',
  },
  // if (nextLf < i) {
  {
    file: 'src/strip.ts',
    line: 138,
    column: 13,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'searching again finds the cached line feed: none lies between the earlier search start and it',
  },
  {
    file: 'src/strip.ts',
    line: 138,
    column: 13,
    mutator: 'EqualityOperator',
    replacement: 'nextLf <= i',
    why: 'searching again finds the cached line feed: none lies between the earlier search start and it',
  },
  // if (line.isClear) this.out.push(text.slice(i, lastLf + 1));
  {
    file: 'src/strip.ts',
    line: 145,
    column: 15,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: `${FAST_PATH}: a complete line written through a clear row comes out as it went in`,
  },
  // if (lastLf > nextLf) this.out.push(text.slice(nextLf + 1, lastLf + 1));
  {
    file: 'src/strip.ts',
    line: 149,
    column: 17,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: `${EMPTY_SLICE} (at lastLf === nextLf the slice is empty)`,
  },
  {
    file: 'src/strip.ts',
    line: 149,
    column: 17,
    mutator: 'EqualityOperator',
    replacement: 'lastLf >= nextLf',
    why: `${EMPTY_SLICE} (at lastLf === nextLf the slice is empty)`,
  },
  // if (i < j) line.write(text, i, j);
  {
    file: 'src/strip.ts',
    line: 153,
    column: 13,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'writing an empty range does nothing',
  },
  {
    file: 'src/strip.ts',
    line: 153,
    column: 13,
    mutator: 'EqualityOperator',
    replacement: 'i <= j',
    why: 'writing an empty range does nothing',
  },
  // if (j >= n) break;
  {
    file: 'src/strip.ts',
    line: 154,
    column: 13,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'at j === n charCodeAt is NaN: c1(NaN) gives GROUND, the state already, and i passes n, which ends the loop',
  },
  {
    file: 'src/strip.ts',
    line: 154,
    column: 13,
    mutator: 'EqualityOperator',
    replacement: 'j > n',
    why: 'at j === n charCodeAt is NaN: c1(NaN) gives GROUND, the state already, and i passes n, which ends the loop',
  },
  // state = c < 0x20 || c === DEL ? this.control(c, state) : this.c1(c);
  {
    file: 'src/strip.ts',
    line: 157,
    column: 17,
    mutator: 'EqualityOperator',
    replacement: 'c <= 0x20',
    why: 'the byte after a plain run is never a space (plain); DEL through c1() gives GROUND, as control() leaves GROUND',
  },
  {
    file: 'src/strip.ts',
    line: 157,
    column: 29,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'the byte after a plain run is never a space (plain); DEL through c1() gives GROUND, as control() leaves GROUND',
  },
  // else if (c < 0x20) state = GROUND;
  {
    file: 'src/strip.ts',
    line: 167,
    column: 18,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'the end of a string found here is BEL, CAN, SUB or a C1 (never a space; ESC is taken above): c1() also gives GROUND for BEL, CAN and SUB',
  },
  {
    file: 'src/strip.ts',
    line: 167,
    column: 18,
    mutator: 'EqualityOperator',
    replacement: 'c <= 0x20',
    why: 'the end of a string found here is BEL, CAN, SUB or a C1 (never a space; ESC is taken above): c1() also gives GROUND for BEL, CAN and SUB',
  },
  // if (c >= 0x20 && c < DEL) i++;
  {
    file: 'src/strip.ts',
    line: 173,
    column: 28,
    mutator: 'EqualityOperator',
    replacement: 'c <= DEL',
    why: 'a DEL after SS2/SS3 is dropped whether it is taken with it or read again in GROUND',
  },
  // if (c >= C1_FIRST) {
  {
    file: 'src/strip.ts',
    line: 182,
    column: 13,
    mutator: 'EqualityOperator',
    replacement: 'c > C1_FIRST',
    why: '0x80 then takes the printable-byte path, which ends the sequence in GROUND and prints nothing (as a CSI final it is none the row acts on), as c1(0x80) does',
  },
  // if (c <= C1_LAST) {
  {
    file: 'src/strip.ts',
    line: 184,
    column: 15,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'a C1 control left unread ends the sequence in GROUND, where c1() reads it: the same state follows',
  },
  {
    file: 'src/strip.ts',
    line: 184,
    column: 15,
    mutator: 'EqualityOperator',
    replacement: 'c < C1_LAST',
    why: 'a C1 control left unread ends the sequence in GROUND, where c1() reads it: the same state follows',
  },
];

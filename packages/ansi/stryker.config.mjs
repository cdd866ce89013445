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

// Surviving mutants no test can tell from the original, by source line and how many survive
// there at most (tooling/scripts/verify-static.mjs sets a line aside only while no more
// survive on it). Each was also run against the original on 100,000 random inputs (split
// into random chunks, at widths 1 to 4,096) without a difference; see the README.
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
  {
    file: 'src/dsr.ts',
    line: "if (!chunk.includes('6n')) return { text: chunk, count: 0 };",
    survivors: 2,
    why: `${FAST_PATH}: without it replace() finds no query in a chunk without "6n" and returns the text, count 0`,
  },
  {
    file: 'src/dsr.ts',
    line: "const text = held === '' ? chunk : held + chunk;",
    survivors: 2,
    why: `${EMPTY_SLICE} ('' + chunk; held is at most a 4-unit query prefix, never "Stryker was here!")`,
  },
  {
    file: 'src/dsr.ts',
    line: "held = keep === 0 ? '' : text.slice(text.length - keep);",
    survivors: 1,
    why: `${EMPTY_SLICE} (text.slice(text.length - 0) is '')`,
  },
  {
    file: 'src/dsr.ts',
    line: 'return stripDsrRequests(keep === 0 ? text : text.slice(0, text.length - keep));',
    survivors: 1,
    why: `${EMPTY_SLICE} (text.slice(0, text.length - 0) is text)`,
  },
  // mode-tracker.ts
  { file: 'src/mode-tracker.ts', line: 'private ignored = false;', survivors: 1, why: SET_BEFORE_READ },
  { file: 'src/mode-tracker.ts', line: 'private started = false;', survivors: 1, why: SET_BEFORE_READ },
  { file: 'src/mode-tracker.ts', line: 'private inSubParam = false;', survivors: 1, why: SET_BEFORE_READ },
  {
    file: 'src/mode-tracker.ts',
    line: 'private namesCursorKeys = false;',
    survivors: 1,
    why: SET_BEFORE_READ,
  },
  { file: 'src/mode-tracker.ts', line: 'private namesPaste = false;', survivors: 1, why: SET_BEFORE_READ },
  {
    file: 'src/mode-tracker.ts',
    line: 'if (nextEsc !== -1 && nextEsc < i) nextEsc = chunk.indexOf(ESC_TEXT, i);',
    survivors: 5,
    why: 'speed only: searching again from i finds the same next ESC (the cached one is at or after i, or there is none)',
  },
  {
    file: 'src/mode-tracker.ts',
    line: 'if (nextCsi !== -1 && nextCsi < i) nextCsi = chunk.indexOf(CSI_TEXT, i);',
    survivors: 5,
    why: 'speed only: searching again from i finds the same next CSI (the cached one is at or after i, or there is none)',
  },
  {
    file: 'src/mode-tracker.ts',
    line: 'if (c >= C1_FIRST) {',
    survivors: 1,
    why: '0x80 then takes the path of a printable byte, which from every state ends in GROUND with no mode change (as a CSI final it is not h, l or p), as the C1 path does',
  },
  {
    file: 'src/mode-tracker.ts',
    line: 'if (c < 0x30) state = ESCAPE_INTERMEDIATE;',
    survivors: 2,
    why: AS_GROUND,
  },
  {
    file: 'src/mode-tracker.ts',
    line: '} else if (state === ESCAPE_INTERMEDIATE) {',
    survivors: 1,
    why: AS_GROUND,
  },
  { file: 'src/mode-tracker.ts', line: 'if (c >= 0x30) state = GROUND;', survivors: 4, why: AS_GROUND },
  {
    file: 'src/mode-tracker.ts',
    line: '} else if (c >= 0x40) {',
    survivors: 1,
    why: "'@' read as a CSI byte instead of a final: the sequence goes on ignored (or with '@' as its prefix), so the byte that ends it is neither DECSET/DECRST (needs ?) nor DECSTR (needs no prefix); after a real '@' the same bytes are text",
  },
  {
    file: 'src/mode-tracker.ts',
    line: 'this.intermediate = this.intermediate === 0 ? c : -1;',
    survivors: 1,
    why: "the mark for several intermediates is only compared with 0 and '!' (0x21): +1 is neither, as -1 is",
  },
  // pending-line.ts
  {
    file: 'src/pending-line.ts',
    line: 'get isClear(): boolean {',
    survivors: 1,
    why: `${FAST_PATH}: strip.ts then writes a complete line through the row model, which on a clear row gives the line`,
  },
  {
    file: 'src/pending-line.ts',
    line: 'if (col === row.length) this.text = row + piece;',
    survivors: 1,
    why: FAST_PATH,
  },
  {
    file: 'src/pending-line.ts',
    line: "else if (col > row.length) this.text = row + ' '.repeat(col - row.length) + piece;",
    survivors: 1,
    why: 'col === row.length is taken by the line above',
  },
  {
    file: 'src/pending-line.ts',
    line: 'if (this.col >= this.width) this.cursorTo(this.width - 1);',
    survivors: 2,
    why: 'cursorTo() stops at the margin (width - 1) for any column at or past it, so width + 1 lands on the same cell',
  },
  {
    file: 'src/pending-line.ts',
    line: 'if (col > this.text.length) this.col = col - 1;',
    survivors: 1,
    why: 'past the end of the text the other branch also steps back one: charCodeAt there is NaN, never a surrogate',
  },
  {
    file: 'src/pending-line.ts',
    line: 'col >= 2 &&',
    survivors: 1,
    why: 'at col 1 the unit before the previous one is charCodeAt(-1), NaN, never a high surrogate',
  },
  {
    file: 'src/pending-line.ts',
    line: 'while (cells > 0 && index < row.length) {',
    survivors: 2,
    why: `${PAST_THE_END} (index + cells), and the stop at the margin is the same`,
  },
  {
    file: 'src/pending-line.ts',
    line: 'if (col < row.length) this.text = row.slice(0, col);',
    survivors: 2,
    why: `${EMPTY_SLICE} (row.slice(0, col) with col at or past the end is the row)`,
  },
  {
    file: 'src/pending-line.ts',
    line: "this.out.push(blanks > 0 ? this.text + ' '.repeat(blanks) : this.text);",
    survivors: 1,
    why: "' '.repeat(0) adds nothing",
  },
  {
    file: 'src/pending-line.ts',
    line: 'return this.col <= row.length',
    survivors: 2,
    why: `${PAST_THE_END}: countCodePoints() past the end counts one per unit, what the other branch adds; at the end both count the row`,
  },
  {
    file: 'src/pending-line.ts',
    line: 'for (let left = count; left > 0 && index < row.length; left--) index = nextCodePoint(row, index);',
    survivors: 2,
    why: 'an index past the end of the row slices to the same empty rest',
  },
  // strip.ts
  { file: 'src/strip.ts', line: 'private csiParamDone = false;', survivors: 1, why: SET_BEFORE_READ },
  { file: 'src/strip.ts', line: 'private csiPlain = true;', survivors: 1, why: SET_BEFORE_READ },
  {
    file: 'src/strip.ts',
    line: "let text = this.carry === '' ? chunk : this.carry + chunk;",
    survivors: 2,
    why: `${EMPTY_SLICE} ('' + chunk; the carry is '' or one high surrogate, never "Stryker was here!")`,
  },
  {
    file: 'src/strip.ts',
    line: 'if (text.length > 0 && isHighSurrogate(text.charCodeAt(text.length - 1))) {',
    survivors: 2,
    why: 'for empty text charCodeAt(-1) is NaN, never a high surrogate',
  },
  {
    file: 'src/strip.ts',
    line: "if (this.carry !== '') this.run(this.carry);",
    survivors: 2,
    why: "running the empty carry does nothing (it is '' or one high surrogate)",
  },
  { file: 'src/strip.ts', line: "if (out.length === 0) return '';", survivors: 1, why: "[].join('') is ''" },
  {
    file: 'src/strip.ts',
    line: "const text = out.length === 1 ? (out[0] as string) : out.join('');",
    survivors: 1,
    why: 'joining one string gives that string',
  },
  {
    file: 'src/strip.ts',
    line: 'if (nextLf < i) {',
    survivors: 2,
    why: 'searching again finds the cached line feed: none lies between the earlier search start and it',
  },
  {
    file: 'src/strip.ts',
    line: 'if (line.isClear) this.out.push(text.slice(i, lastLf + 1));',
    survivors: 1,
    why: `${FAST_PATH}: a complete line written through a clear row comes out as it went in`,
  },
  {
    file: 'src/strip.ts',
    line: 'if (lastLf > nextLf) this.out.push(text.slice(nextLf + 1, lastLf + 1));',
    survivors: 2,
    why: `${EMPTY_SLICE} (at lastLf === nextLf the slice is empty)`,
  },
  {
    file: 'src/strip.ts',
    line: 'if (i < j) line.write(text, i, j);',
    survivors: 2,
    why: 'writing an empty range does nothing',
  },
  {
    file: 'src/strip.ts',
    line: 'if (j >= n) break;',
    survivors: 2,
    why: 'at j === n charCodeAt is NaN: c1(NaN) gives GROUND, the state already, and i passes n, which ends the loop',
  },
  {
    file: 'src/strip.ts',
    line: 'state = c < 0x20 || c === DEL ? this.control(c, state) : this.c1(c);',
    survivors: 2,
    why: 'the byte after a plain run is never a space (plain); DEL through c1() gives GROUND, as control() leaves GROUND',
  },
  {
    file: 'src/strip.ts',
    line: 'else if (c < 0x20) state = GROUND;',
    survivors: 2,
    why: 'the end of a string found here is BEL, CAN, SUB or a C1 (never a space; ESC is taken above): c1() also gives GROUND for BEL, CAN and SUB',
  },
  {
    file: 'src/strip.ts',
    line: 'if (c >= 0x20 && c < DEL) i++;',
    survivors: 1,
    why: 'a DEL after SS2/SS3 is dropped whether it is taken with it or read again in GROUND',
  },
  {
    file: 'src/strip.ts',
    line: 'if (c >= C1_FIRST) {',
    survivors: 1,
    why: '0x80 then takes the printable-byte path, which ends the sequence in GROUND and prints nothing (as a CSI final it is none the row acts on), as c1(0x80) does',
  },
  {
    file: 'src/strip.ts',
    line: 'if (c <= C1_LAST) {',
    survivors: 2,
    why: 'a C1 control left unread ends the sequence in GROUND, where c1() reads it: the same state follows',
  },
];

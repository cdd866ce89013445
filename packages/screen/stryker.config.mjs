import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// The tmux differential and the live-PTY tests drive real processes; the recorded fixtures,
// the property test and the unit tests cover the same code in-process.
export default mutationConfig('screen', {
  breakAt: 95,
  tests: [
    'test/screen.test.ts',
    'test/delta.test.ts',
    'test/options.test.ts',
    'test/parse-queue.test.ts',
    'test/property.test.ts',
    'test/recorded.test.ts',
    'test/anchor.test.ts',
    'test/serialize.test.ts',
    'test/buffer-lines.test.ts',
    'test/retire.test.ts',
    'test/plain-rows.test.ts',
  ],
});

// Surviving mutants no test can tell from the original, each named by file, line, column, mutator
// and replacement (tooling/scripts/verify-static.mjs sets aside exactly those; a comment above each
// group quotes its source line). Most are guards a loop or lookup never needs (reading past the end
// of an array gives undefined, which stops it the same way), shortcuts to the same answer, or
// fallbacks for a state the screen is never in while it is alive.
const MARKER_SET =
  'the marker is set from the constructor until dispose(), and nothing reads the anchor after dispose() (every render checks first)';
const PAST_THE_END =
  'one step further reads lines[-1] or charCodeAt(-1) (undefined, NaN), which stops the loop the same way';
const MEMORY_ONLY = 'releases memory (a drained backlog, a sent chunk); no later read looks at it';
const CLOSED =
  'after close() the backlog and waiters are empty and idle() rejects first; TerminalScreen, the only user (ParseQueue is not exported), never pushes after closing it';
export const equivalent = [
  // anchor.ts
  // const line = this.marker?.line ?? -1;
  {
    file: 'src/anchor.ts',
    line: 23,
    column: 18,
    mutator: 'OptionalChaining',
    replacement: 'this.marker.line',
    why: MARKER_SET,
  },
  // else this.skip = row - Math.max(this.marker?.line ?? -1, 0);
  {
    file: 'src/anchor.ts',
    line: 30,
    column: 37,
    mutator: 'OptionalChaining',
    replacement: 'this.marker.line',
    why: MARKER_SET,
  },
  // constructor(private readonly terminal: Terminal) {
  {
    file: 'src/anchor.ts',
    line: 17,
    column: 52,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: 'without the first marker row() reads max(-1, 0) = 0, the row the first marker stands for, and normalActivated() places nothing with skip 0',
  },
  // else if (this.skip !== 0) this.place(this.row());
  {
    file: 'src/anchor.ts',
    line: 39,
    column: 14,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'with skip 0, row() is the row the marker already stands for (0 for one trimmed away, which reads 0 too): placing it again changes nothing',
  },
  // dispose(): void {
  {
    file: 'src/anchor.ts',
    line: 48,
    column: 19,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: 'the marker goes with the terminal, which TerminalScreen.dispose() disposes right after',
  },
  // this.marker?.dispose();
  {
    file: 'src/anchor.ts',
    line: 49,
    column: 5,
    mutator: 'OptionalChaining',
    replacement: 'this.marker.dispose',
    why: `in dispose(): ${MARKER_SET}; TerminalScreen.dispose() runs it once`,
  },
  // buffer-lines.ts
  // while (count < lines.length && lines[lines.length - 1 - count] === '') count++;
  {
    file: 'src/buffer-lines.ts',
    line: 42,
    column: 10,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: PAST_THE_END,
  },
  {
    file: 'src/buffer-lines.ts',
    line: 42,
    column: 10,
    mutator: 'EqualityOperator',
    replacement: 'count <= lines.length',
    why: PAST_THE_END,
  },
  // while (end > 0 && text.charCodeAt(end - 1) === 32) end--;
  {
    file: 'src/buffer-lines.ts',
    line: 55,
    column: 10,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: PAST_THE_END,
  },
  {
    file: 'src/buffer-lines.ts',
    line: 55,
    column: 10,
    mutator: 'EqualityOperator',
    replacement: 'end >= 0',
    why: PAST_THE_END,
  },
  // return end === text.length ? text : text.slice(0, end);
  {
    file: 'src/buffer-lines.ts',
    line: 56,
    column: 10,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'text.slice(0, text.length) is the text',
  },
  // delta.ts
  // const shorter = Math.min(prev.length, next.length);
  {
    file: 'src/delta.ts',
    line: 43,
    column: 19,
    mutator: 'MethodExpression',
    replacement: 'Math.max(prev.length, next.length)',
    why: 'past the shorter array one side is undefined and the other a string, so the prefix stops at the same line',
  },
  // last !== undefined &&
  {
    file: 'src/delta.ts',
    line: 63,
    column: 5,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'common === prev.length - 1 (checked just before) already means prev[common] exists; the check only narrows the type',
  },
  // parse-queue.ts
  // this.waiters = [];
  {
    file: 'src/parse-queue.ts',
    line: 63,
    column: 20,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: CLOSED,
  },
  // if (this.closedWith) return;
  {
    file: 'src/parse-queue.ts',
    line: 78,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: `in onParsed(): ${CLOSED}`,
  },
  // this.backlog[this.backlogHead++] = '';
  {
    file: 'src/parse-queue.ts',
    line: 83,
    column: 42,
    mutator: 'StringLiteral',
    replacement: '"Stryker was here!"',
    why: MEMORY_ONLY,
  },
  // if (this.backlogHead === this.backlog.length) {
  {
    file: 'src/parse-queue.ts',
    line: 86,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: `${MEMORY_ONLY}: a drained backlog reads as empty (head === length) whether or not it is reset`,
  },
  {
    file: 'src/parse-queue.ts',
    line: 86,
    column: 51,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: `${MEMORY_ONLY}: a drained backlog reads as empty (head === length) whether or not it is reset`,
  },
  // if (done === 0) return;
  {
    file: 'src/parse-queue.ts',
    line: 92,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'a shortcut: splicing no waiters resolves none',
  },
  // terminal-screen.ts
  // const PARSER_HIGH_WATER = 16 * 1024 * 1024;
  {
    file: 'src/terminal-screen.ts',
    line: 20,
    column: 27,
    mutator: 'ArithmeticOperator',
    replacement: '16 * 1024 / 1024',
    why: 'how much is handed to xterm.js at once: with 16 characters every chunk still goes (a bigger one alone), in order, and renders wait for all of it; only throughput differs',
  },
  {
    file: 'src/terminal-screen.ts',
    line: 20,
    column: 27,
    mutator: 'ArithmeticOperator',
    replacement: '16 / 1024',
    why: 'how much is handed to xterm.js at once: with 16 characters every chunk still goes (a bigger one alone), in order, and renders wait for all of it; only throughput differs',
  },
  // const kept = next >= start ? rows.slice(above) : readRows(normal, next, start).concat(rows);
  {
    file: 'src/terminal-screen.ts',
    line: 125,
    column: 18,
    mutator: 'EqualityOperator',
    replacement: 'next > start',
    why: '`>` for `>=`: at next === start the rows read from next to start are none, so both branches keep the same rows',
  },
  // if (!this.replyListeners.delete(listener)) return;
  {
    file: 'src/terminal-screen.ts',
    line: 241,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: '→ false: disposing an xterm.js listener a second time is a no-op',
  },
  // if (this.disposed) return;
  {
    file: 'src/terminal-screen.ts',
    line: 248,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'every step of dispose() is itself idempotent (the queue, the listener set, the anchor, the xterm.js terminal)',
  },
  // if (rows[first]) rows[first]!.wrapped = false;
  {
    file: 'src/terminal-screen.ts',
    line: 303,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: '→ true: the alternate buffer always holds at least one row (rows >= 1)',
  },
  // plain-rows.ts
  // while (stop < end && text.charCodeAt(stop) !== LF && text.charCodeAt(stop) !== CR) stop++;
  {
    file: 'src/plain-rows.ts',
    line: 44,
    column: 12,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: '→ false: the run is written one character at a time, into the same cells with the same wraps',
  },
  // return rows.length > count ? rows.slice(rows.length - count) : rows;
  {
    file: 'src/plain-rows.ts',
    line: 60,
    column: 10,
    mutator: 'EqualityOperator',
    replacement: 'rows.length >= count',
    why: 'at equal lengths slice(0) is the same rows',
  },
  // if (x === 0 && part.length >= line.length) return part;
  {
    file: 'src/plain-rows.ts',
    line: 65,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'a shortcut: the general path gives the same string (empty head, the part, nothing of the line after it)',
  },
  {
    file: 'src/plain-rows.ts',
    line: 65,
    column: 18,
    mutator: 'EqualityOperator',
    replacement: 'part.length > line.length',
    why: 'at equal lengths the general path gives the part too',
  },
  // const head = x > line.length ? line + ' '.repeat(x - line.length) : line.slice(0, x);
  {
    file: 'src/plain-rows.ts',
    line: 66,
    column: 16,
    mutator: 'EqualityOperator',
    replacement: 'x >= line.length',
    why: 'at x === line.length both branches give the whole line',
  },
  {
    file: 'src/plain-rows.ts',
    line: 66,
    column: 52,
    mutator: 'ArithmeticOperator',
    replacement: 'x + line.length',
    why: 'the cursor passes the written cells only on a row nothing was written to yet (after a line feed), where line.length is 0',
  },
];

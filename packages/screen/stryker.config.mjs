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
  ],
});

// Surviving mutants no test can tell from the original, by source line and how many survive
// there at most (tooling/scripts/verify-static.mjs sets a line aside only while no more
// survive on it). Most are guards a loop or lookup never needs (reading past the end of an
// array gives undefined, which stops it the same way), shortcuts to the same answer, or
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
  { file: 'src/anchor.ts', line: 'const line = this.marker?.line ?? -1;', survivors: 2, why: MARKER_SET },
  {
    file: 'src/anchor.ts',
    line: 'else this.skip = row - Math.max(this.marker?.line ?? -1, 0);',
    survivors: 2,
    why: MARKER_SET,
  },
  {
    file: 'src/anchor.ts',
    line: 'constructor(private readonly terminal: Terminal) {',
    survivors: 1,
    why: 'without the first marker row() reads max(-1, 0) = 0, the row the first marker stands for, and normalActivated() places nothing with skip 0',
  },
  {
    file: 'src/anchor.ts',
    line: 'else if (this.skip !== 0) this.place(this.row());',
    survivors: 1,
    why: 'with skip 0, row() is the row the marker already stands for (0 for one trimmed away, which reads 0 too): placing it again changes nothing',
  },
  {
    file: 'src/anchor.ts',
    line: 'dispose(): void {',
    survivors: 1,
    why: 'the marker goes with the terminal, which TerminalScreen.dispose() disposes right after',
  },
  {
    file: 'src/anchor.ts',
    line: 'this.marker?.dispose();',
    survivors: 1,
    why: `in dispose(): ${MARKER_SET}; TerminalScreen.dispose() runs it once`,
  },
  // buffer-lines.ts
  {
    file: 'src/buffer-lines.ts',
    line: "while (count < lines.length && lines[lines.length - 1 - count] === '') count++;",
    survivors: 2,
    why: PAST_THE_END,
  },
  {
    file: 'src/buffer-lines.ts',
    line: 'while (end > 0 && text.charCodeAt(end - 1) === 32) end--;',
    survivors: 2,
    why: PAST_THE_END,
  },
  {
    file: 'src/buffer-lines.ts',
    line: 'return end === text.length ? text : text.slice(0, end);',
    survivors: 1,
    why: 'text.slice(0, text.length) is the text',
  },
  // delta.ts
  {
    file: 'src/delta.ts',
    line: 'const shorter = Math.min(prev.length, next.length);',
    survivors: 1,
    why: 'past the shorter array one side is undefined and the other a string, so the prefix stops at the same line',
  },
  {
    file: 'src/delta.ts',
    line: 'last !== undefined &&',
    survivors: 1,
    why: 'common === prev.length - 1 (checked just before) already means prev[common] exists; the check only narrows the type',
  },
  // parse-queue.ts
  { file: 'src/parse-queue.ts', line: 'this.waiters = [];', survivors: 1, why: CLOSED },
  {
    file: 'src/parse-queue.ts',
    line: 'if (this.closedWith) return;',
    survivors: 1,
    why: `in onParsed(): ${CLOSED}`,
  },
  {
    file: 'src/parse-queue.ts',
    line: "this.backlog[this.backlogHead++] = '';",
    survivors: 1,
    why: MEMORY_ONLY,
  },
  {
    file: 'src/parse-queue.ts',
    line: 'if (this.backlogHead === this.backlog.length) {',
    survivors: 2,
    why: `${MEMORY_ONLY}: a drained backlog reads as empty (head === length) whether or not it is reset`,
  },
  {
    file: 'src/parse-queue.ts',
    line: 'if (done === 0) return;',
    survivors: 1,
    why: 'a shortcut: splicing no waiters resolves none',
  },
  // terminal-screen.ts
  {
    file: 'src/terminal-screen.ts',
    line: 'const PARSER_HIGH_WATER = 16 * 1024 * 1024;',
    survivors: 2,
    why: 'how much is handed to xterm.js at once: with 16 characters every chunk still goes (a bigger one alone), in order, and renders wait for all of it; only throughput differs',
  },
  {
    file: 'src/terminal-screen.ts',
    line: 'const kept = next >= start ? rows.slice(above) : readRows(normal, next, start).concat(rows);',
    survivors: 1,
    why: '`>` for `>=`: at next === start the rows read from next to start are none, so both branches keep the same rows',
  },
  {
    file: 'src/terminal-screen.ts',
    line: 'if (!this.replyListeners.delete(listener)) return;',
    survivors: 1,
    why: '→ false: disposing an xterm.js listener a second time is a no-op',
  },
  {
    file: 'src/terminal-screen.ts',
    line: 'if (this.disposed) return;',
    survivors: 1,
    why: 'every step of dispose() is itself idempotent (the queue, the listener set, the anchor, the xterm.js terminal)',
  },
  {
    file: 'src/terminal-screen.ts',
    line: 'if (rows[first]) rows[first]!.wrapped = false;',
    survivors: 1,
    why: '→ true: the alternate buffer always holds at least one row (rows >= 1)',
  },
];

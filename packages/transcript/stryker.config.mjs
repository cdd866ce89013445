import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// The pure part of the transcript: the output log and the byte store under it, the line index
// and its walk, and the output budget.
export default mutationConfig('transcript', {
  breakAt: 95,
  mutate: [
    'src/log/output-log.ts',
    'src/log/byte-store.ts',
    'src/log/utf8.ts',
    'src/log/stream-runs.ts',
    'src/lines/transcript.ts',
    'src/lines/transcript-index.ts',
    'src/lines/transcript-walk.ts',
    'src/excerpt/truncate.ts',
  ],
  tests: [
    'test/log/output-log.test.ts',
    'test/log/output-log.property.test.ts',
    'test/log/byte-store.test.ts',
    'test/log/utf8.test.ts',
    'test/log/utf8-edges.test.ts',
    'test/log/output-log-edges.test.ts',
    'test/log/stream-runs.test.ts',
    'test/lines/transcript.test.ts',
    'test/lines/transcript-render.test.ts',
    'test/excerpt/truncate.test.ts',
    'test/excerpt/truncate-edges.test.ts',
  ],
});

// Surviving mutants no test can tell from the original, each named by file, line, column, mutator
// and replacement (tooling/scripts/verify-static.mjs sets aside exactly those; a comment above each
// group quotes its source line). Most choose between two paths that give the same answer (a fast
// path, a cache, a shortcut in a search) or change how bytes are laid out in memory, not which
// bytes are held.
const SAME_BLOCKS = 'block sizes and reuse: where bytes sit in memory, never which bytes are held';
const FAST_PATH = 'chooses between a fast path and the general one, which give the same result';
const CACHE = 'the newest chunk kept for drain(): without it drain() decodes the same text from storage';
export const equivalent = [
  // log/output-log.ts
  // const FIRST_BLOCK_BYTES = 16 * 1024;
  {
    file: 'src/log/output-log.ts',
    line: 55,
    column: 27,
    mutator: 'ArithmeticOperator',
    replacement: '16 / 1024',
    why: SAME_BLOCKS,
  },
  // const LAST_CHUNK_UNITS = 1024 * 1024;
  {
    file: 'src/log/output-log.ts',
    line: 63,
    column: 26,
    mutator: 'ArithmeticOperator',
    replacement: '1024 / 1024',
    why: CACHE,
  },
  // private lastStream: OutputStream = 'stdout';
  {
    file: 'src/log/output-log.ts',
    line: 100,
    column: 38,
    mutator: 'StringLiteral',
    replacement: '""',
    why: 'an initial value every append overwrites before drain() reads it',
  },
  // const maxBlockBytes = Math.min(MAX_BLOCK_BYTES, this.maxRetainedBytes);
  {
    file: 'src/log/output-log.ts',
    line: 120,
    column: 27,
    mutator: 'MethodExpression',
    replacement: 'Math.max(MAX_BLOCK_BYTES, this.maxRetainedBytes)',
    why: SAME_BLOCKS,
  },
  // if (this.tailAt !== this.total) {: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'recomputing the tail every time instead of caching it gives the same tail')
  // if (chunk.length === 0) return;: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'an empty chunk stored adds 0 bytes and a run of length 0, which no read or drain visits')
  // if (text.length > cap || (text.length * MAX_BYTES_PER_UNIT > cap && Buffer.byteLength(text) > cap)) {: NOT RE-KEYED yet (its line holds more mutants than the 11 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: `${FAST_PATH}: a chunk over the cap stored whole is then evicted to the same boundary`)
  // if (text.length <= LAST_CHUNK_UNITS || text.length <= this.undrainedCap) {
  {
    file: 'src/log/output-log.ts',
    line: 177,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: CACHE,
  },
  {
    file: 'src/log/output-log.ts',
    line: 177,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '177:78',
    why: CACHE,
  },
  {
    file: 'src/log/output-log.ts',
    line: 177,
    column: 11,
    mutator: 'LogicalOperator',
    replacement: 'text.length <= LAST_CHUNK_UNITS && text.length <= this.undrainedCap',
    why: CACHE,
  },
  {
    file: 'src/log/output-log.ts',
    line: 177,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '177:42',
    why: CACHE,
  },
  {
    file: 'src/log/output-log.ts',
    line: 177,
    column: 11,
    mutator: 'EqualityOperator',
    replacement: 'text.length < LAST_CHUNK_UNITS',
    why: CACHE,
  },
  {
    file: 'src/log/output-log.ts',
    line: 177,
    column: 11,
    mutator: 'EqualityOperator',
    replacement: 'text.length > LAST_CHUNK_UNITS',
    why: CACHE,
  },
  {
    file: 'src/log/output-log.ts',
    line: 177,
    column: 46,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: CACHE,
  },
  {
    file: 'src/log/output-log.ts',
    line: 177,
    column: 46,
    mutator: 'EqualityOperator',
    replacement: 'text.length < this.undrainedCap',
    why: CACHE,
  },
  {
    file: 'src/log/output-log.ts',
    line: 177,
    column: 46,
    mutator: 'EqualityOperator',
    replacement: 'text.length > this.undrainedCap',
    why: CACHE,
  },
  {
    file: 'src/log/output-log.ts',
    line: 177,
    column: 80,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: CACHE,
  },
  // if (this.total - this.first > cap) this.evict();: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'evicting again when within the cap rounds to the same first boundary (truncated is already set)')
  // let i = position < this.total ? this.runs.indexOf(position) : this.runs.length;: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: `a shortcut before a search or loop that reaches the same answer without it: at the end the newest run is visited and yields nothing`)
  // i < this.runs.length;: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'one step past the last run decodes nothing from the end')
  // if (budget === 0) break;: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: `a shortcut before a search or loop that reaches the same answer without it: a full page cut at the next run takes no bytes and stops there`)
  // if (from < floor) {: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'at from == floor nothing is dropped')
  // const last = this.lastText !== undefined && from >= this.lastStart ? this.lastEnd(from) : undefined;: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: CACHE)
  // if (last !== undefined) {: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: CACHE)
  // } else if (from < this.total) {: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: `a shortcut before a search or loop that reaches the same answer without it: from the end there is nothing to decode`)
  // private lastEnd(from: number): string | undefined {
  {
    file: 'src/log/output-log.ts',
    line: 275,
    column: 53,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: CACHE,
  },
  // if (from === this.lastStart) return text;: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: CACHE)
  // return this.lastSize === text.length ? text.slice(from - this.lastStart) : undefined;: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: CACHE)
  // const bytes = Buffer.from(text, 'utf8');
  {
    file: 'src/log/output-log.ts',
    line: 284,
    column: 37,
    mutator: 'StringLiteral',
    replacement: '""',
    why: "Node reads the encoding '' as its default, UTF-8",
  },
  // while (cut < bytes.length && isContinuation(bytes[cut]!)) cut += 1;: NOT RE-KEYED yet (its line holds more mutants than the 5 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'the eviction that always follows rounds the first retained byte to the same boundary')
  // log/byte-store.ts
  // this.minBlock = Math.min(this.maxBlock, Math.max(MIN_BLOCK_BYTES, sizes.minBlockBytes));: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: SAME_BLOCKS)
  // if (text.length >= MEASURE_FIRST_UNITS) {
  {
    file: 'src/log/byte-store.ts',
    line: 77,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: `${FAST_PATH} (a chunk measured or not is stored as the same bytes)`,
  },
  {
    file: 'src/log/byte-store.ts',
    line: 77,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: `${FAST_PATH} (a chunk measured or not is stored as the same bytes)`,
  },
  {
    file: 'src/log/byte-store.ts',
    line: 77,
    column: 9,
    mutator: 'EqualityOperator',
    replacement: 'text.length > MEASURE_FIRST_UNITS',
    why: `${FAST_PATH} (a chunk measured or not is stored as the same bytes)`,
  },
  {
    file: 'src/log/byte-store.ts',
    line: 77,
    column: 9,
    mutator: 'EqualityOperator',
    replacement: 'text.length < MEASURE_FIRST_UNITS',
    why: `${FAST_PATH} (a chunk measured or not is stored as the same bytes)`,
  },
  {
    file: 'src/log/byte-store.ts',
    line: 77,
    column: 45,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: `${FAST_PATH} (a chunk measured or not is stored as the same bytes)`,
  },
  // if (size === text.length) this.appendAscii(text);: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: `${FAST_PATH} (ASCII encoded as UTF-8 instead of copied)`)
  // else if (size <= room) this.write(block, text, room);: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: `${FAST_PATH} (encoded whole and copied in whole characters instead)`)
  // else this.appendBytes(Buffer.from(text, 'utf8'));: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: "Node reads the encoding '' as its default, UTF-8")
  // if (text.length * MAX_BYTES_PER_UNIT <= room) return this.write(block, text, room);: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: FAST_PATH)
  // if (size <= room) return this.write(block, text, room);: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: FAST_PATH)
  // if (size === text.length) this.appendAscii(text);: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: `${FAST_PATH} (ASCII copied in whole characters)`)
  // else this.appendBytes(Buffer.from(text, 'utf8'));: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: "Node reads the encoding '' as its default, UTF-8")
  // if (at + count < bytes.length) while (count > 0 && isContinuation(bytes[at + count]!)) count -= 1;: NOT RE-KEYED yet (its line holds more mutants than the 5 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'guards that never bind: past the end the byte is undefined (no continuation), and a copy starts on a character, so count never reaches 0')
  // if (this.head > 16 && this.head * 2 >= this.blocks.length) {: NOT RE-KEYED yet (its line holds more mutants than the 8 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'when the dropped slots are compacted away: memory only')
  // for (let i = this.find(from); i < this.blocks.length; i++) {: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'the loop always stops at `to`, inside the blocks held')
  // if (stop === to) break;: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'blocks after `to` decode an empty range')
  // const size = block.bytes.write(text, block.used, room, 'utf8');
  {
    file: 'src/log/byte-store.ts',
    line: 180,
    column: 60,
    mutator: 'StringLiteral',
    replacement: '""',
    why: "Node reads the encoding '' as its default, UTF-8",
  },
  // block.bytes.write(text.slice(at, at + count), block.used, count, 'latin1');: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: "only ASCII comes here, the same bytes in UTF-8 (Node's default for '')")
  // return block === undefined || block.used === block.limit ? this.addBlock() : block;: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: `${SAME_BLOCKS} (a new block for every append)`)
  // return this.blocks.length > this.head ? this.blocks[this.blocks.length - 1] : undefined;: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'with no block held the array is empty, and its last slot is undefined either way')
  // if (this.blocks[high]!.start <= offset) return high;: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: a shortcut before a search or loop that reaches the same answer without it)
  // if (high > low && this.blocks[low + 1]!.start > offset) return low;: NOT RE-KEYED yet (its line holds more mutants than the 4 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: a shortcut before a search or loop that reaches the same answer without it)
  // const held = this.written - this.start;
  {
    file: 'src/log/byte-store.ts',
    line: 225,
    column: 18,
    mutator: 'ArithmeticOperator',
    replacement: 'this.written + this.start',
    why: SAME_BLOCKS,
  },
  // while (size < held && size < this.maxBlock) size *= 2;: NOT RE-KEYED yet (its line holds more mutants than the 8 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: SAME_BLOCKS)
  // size = Math.min(size, this.maxBlock);
  {
    file: 'src/log/byte-store.ts',
    line: 228,
    column: 12,
    mutator: 'MethodExpression',
    replacement: 'Math.max(size, this.maxBlock)',
    why: SAME_BLOCKS,
  },
  // size === this.maxBlock
  {
    file: 'src/log/byte-store.ts',
    line: 231,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: SAME_BLOCKS,
  },
  {
    file: 'src/log/byte-store.ts',
    line: 231,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: SAME_BLOCKS,
  },
  {
    file: 'src/log/byte-store.ts',
    line: 231,
    column: 7,
    mutator: 'EqualityOperator',
    replacement: 'size !== this.maxBlock',
    why: SAME_BLOCKS,
  },
  // private recycle(bytes: Buffer): void {
  {
    file: 'src/log/byte-store.ts',
    line: 239,
    column: 40,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: SAME_BLOCKS,
  },
  // if (bytes.length === this.maxBlock && this.spares.length < MAX_SPARES) this.spares.push(bytes);: NOT RE-KEYED yet (its line holds more mutants than the 4 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: SAME_BLOCKS)
  // log/stream-runs.ts
  // if (this.length > 0 && this.streams[this.streams.length - 1] === stream) return;: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'with no run held the last stream is undefined, so the length check never decides')
  // while (this.length > 1 && this.starts[this.head + 1]! <= offset) this.head += 1;: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'with one run held the next start is undefined, so the length check never decides')
  // if (this.head >= COMPACT_AFTER && this.head * 2 >= this.starts.length) {: NOT RE-KEYED yet (its line holds more mutants than the 8 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'when the dropped slots are compacted away: memory only')
  // let high = this.length - 1;
  {
    file: 'src/log/stream-runs.ts',
    line: 58,
    column: 16,
    mutator: 'ArithmeticOperator',
    replacement: 'this.length + 1',
    why: 'starting the search two slots past the end: their starts are undefined, so it narrows to the same run',
  },
  // if (this.start(high) <= offset) return high;: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: a shortcut before a search or loop that reaches the same answer without it)
  // log/utf8.ts
  // code >= 0xdc00 && code <= 0xdfff && index >= 2 && isHighSurrogate(text.charCodeAt(index - 2));: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'at index 1 the unit before is charCodeAt(-1), NaN, never a high surrogate')
  // return index === 0 ? text : text.slice(index);: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'text.slice(0) is the text')
  // excerpt/truncate.ts (from @procmux/tools)
  // if (tailStart < headEnd) tailStart = headEnd;
  {
    file: 'src/excerpt/truncate.ts',
    line: 166,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'never binds: the tail is searched from max(headEnd, ...) - 1, so it starts at headEnd at the earliest (and at equality the assignment changes nothing)',
  },
  {
    file: 'src/excerpt/truncate.ts',
    line: 166,
    column: 7,
    mutator: 'EqualityOperator',
    replacement: 'tailStart <= headEnd',
    why: 'never binds: the tail is searched from max(headEnd, ...) - 1, so it starts at headEnd at the earliest (and at equality the assignment changes nothing)',
  },
  // if (i > 0 && i < text.length && code >= 0xdc00 && code <= 0xdfff) return forward ? i + 1 : i - 1;
  {
    file: 'src/excerpt/truncate.ts',
    line: 174,
    column: 16,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'i < text.length: at the end charCodeAt gives NaN, which is no low surrogate either',
  },
  {
    file: 'src/excerpt/truncate.ts',
    line: 174,
    column: 16,
    mutator: 'EqualityOperator',
    replacement: 'i <= text.length',
    why: 'i < text.length: at the end charCodeAt gives NaN, which is no low surrogate either',
  },
  // candidates += 1;
  {
    file: 'src/excerpt/truncate.ts',
    line: 191,
    column: 5,
    mutator: 'AssignmentOperator',
    replacement: 'candidates -= 1',
    why: 'the count is only compared with 0, and -n is 0 exactly when n is',
  },
  // line.text.length > MAX_ERROR_LINE_CHARS
  {
    file: 'src/excerpt/truncate.ts',
    line: 193,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'a line of at most 400 characters cut at 400 is the whole line (and gets no marker)',
  },
  {
    file: 'src/excerpt/truncate.ts',
    line: 193,
    column: 7,
    mutator: 'EqualityOperator',
    replacement: 'line.text.length >= MAX_ERROR_LINE_CHARS',
    why: 'a line of at most 400 characters cut at 400 is the whole line (and gets no marker)',
  },
];

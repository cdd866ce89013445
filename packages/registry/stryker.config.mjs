import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// The output log and the byte store under it (the pure part of the registry).
export default mutationConfig('registry', {
  breakAt: 95,
  mutate: ['src/output-log.ts', 'src/byte-store.ts', 'src/utf8.ts', 'src/stream-runs.ts'],
  tests: [
    'test/output-log.test.ts',
    'test/output-log.property.test.ts',
    'test/byte-store.test.ts',
    'test/utf8.test.ts',
    'test/utf8-edges.test.ts',
    'test/output-log-edges.test.ts',
    'test/stream-runs.test.ts',
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
  // output-log.ts
  // const FIRST_BLOCK_BYTES = 16 * 1024;
  {
    file: 'src/output-log.ts',
    line: 55,
    column: 27,
    mutator: 'ArithmeticOperator',
    replacement: '16 / 1024',
    why: SAME_BLOCKS,
  },
  // const LAST_CHUNK_UNITS = 1024 * 1024;
  {
    file: 'src/output-log.ts',
    line: 63,
    column: 26,
    mutator: 'ArithmeticOperator',
    replacement: '1024 / 1024',
    why: CACHE,
  },
  // private lastStream: OutputStream = 'stdout';
  {
    file: 'src/output-log.ts',
    line: 100,
    column: 38,
    mutator: 'StringLiteral',
    replacement: '""',
    why: 'an initial value every append overwrites before drain() reads it',
  },
  // const maxBlockBytes = Math.min(MAX_BLOCK_BYTES, this.maxRetainedBytes);
  {
    file: 'src/output-log.ts',
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
    file: 'src/output-log.ts',
    line: 177,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: CACHE,
  },
  {
    file: 'src/output-log.ts',
    line: 177,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '177:78',
    why: CACHE,
  },
  {
    file: 'src/output-log.ts',
    line: 177,
    column: 11,
    mutator: 'LogicalOperator',
    replacement: 'text.length <= LAST_CHUNK_UNITS && text.length <= this.undrainedCap',
    why: CACHE,
  },
  {
    file: 'src/output-log.ts',
    line: 177,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '177:42',
    why: CACHE,
  },
  {
    file: 'src/output-log.ts',
    line: 177,
    column: 11,
    mutator: 'EqualityOperator',
    replacement: 'text.length < LAST_CHUNK_UNITS',
    why: CACHE,
  },
  {
    file: 'src/output-log.ts',
    line: 177,
    column: 11,
    mutator: 'EqualityOperator',
    replacement: 'text.length > LAST_CHUNK_UNITS',
    why: CACHE,
  },
  {
    file: 'src/output-log.ts',
    line: 177,
    column: 46,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: CACHE,
  },
  {
    file: 'src/output-log.ts',
    line: 177,
    column: 46,
    mutator: 'EqualityOperator',
    replacement: 'text.length < this.undrainedCap',
    why: CACHE,
  },
  {
    file: 'src/output-log.ts',
    line: 177,
    column: 46,
    mutator: 'EqualityOperator',
    replacement: 'text.length > this.undrainedCap',
    why: CACHE,
  },
  {
    file: 'src/output-log.ts',
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
    file: 'src/output-log.ts',
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
    file: 'src/output-log.ts',
    line: 284,
    column: 37,
    mutator: 'StringLiteral',
    replacement: '""',
    why: "Node reads the encoding '' as its default, UTF-8",
  },
  // while (cut < bytes.length && isContinuation(bytes[cut]!)) cut += 1;: NOT RE-KEYED yet (its line holds more mutants than the 5 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'the eviction that always follows rounds the first retained byte to the same boundary')
  // byte-store.ts
  // this.minBlock = Math.min(this.maxBlock, Math.max(MIN_BLOCK_BYTES, sizes.minBlockBytes));: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: SAME_BLOCKS)
  // if (text.length >= MEASURE_FIRST_UNITS) {
  {
    file: 'src/byte-store.ts',
    line: 77,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: `${FAST_PATH} (a chunk measured or not is stored as the same bytes)`,
  },
  {
    file: 'src/byte-store.ts',
    line: 77,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: `${FAST_PATH} (a chunk measured or not is stored as the same bytes)`,
  },
  {
    file: 'src/byte-store.ts',
    line: 77,
    column: 9,
    mutator: 'EqualityOperator',
    replacement: 'text.length > MEASURE_FIRST_UNITS',
    why: `${FAST_PATH} (a chunk measured or not is stored as the same bytes)`,
  },
  {
    file: 'src/byte-store.ts',
    line: 77,
    column: 9,
    mutator: 'EqualityOperator',
    replacement: 'text.length < MEASURE_FIRST_UNITS',
    why: `${FAST_PATH} (a chunk measured or not is stored as the same bytes)`,
  },
  {
    file: 'src/byte-store.ts',
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
    file: 'src/byte-store.ts',
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
    file: 'src/byte-store.ts',
    line: 225,
    column: 18,
    mutator: 'ArithmeticOperator',
    replacement: 'this.written + this.start',
    why: SAME_BLOCKS,
  },
  // while (size < held && size < this.maxBlock) size *= 2;: NOT RE-KEYED yet (its line holds more mutants than the 8 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: SAME_BLOCKS)
  // size = Math.min(size, this.maxBlock);
  {
    file: 'src/byte-store.ts',
    line: 228,
    column: 12,
    mutator: 'MethodExpression',
    replacement: 'Math.max(size, this.maxBlock)',
    why: SAME_BLOCKS,
  },
  // size === this.maxBlock
  {
    file: 'src/byte-store.ts',
    line: 231,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: SAME_BLOCKS,
  },
  {
    file: 'src/byte-store.ts',
    line: 231,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: SAME_BLOCKS,
  },
  {
    file: 'src/byte-store.ts',
    line: 231,
    column: 7,
    mutator: 'EqualityOperator',
    replacement: 'size !== this.maxBlock',
    why: SAME_BLOCKS,
  },
  // private recycle(bytes: Buffer): void {
  {
    file: 'src/byte-store.ts',
    line: 239,
    column: 40,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: SAME_BLOCKS,
  },
  // if (bytes.length === this.maxBlock && this.spares.length < MAX_SPARES) this.spares.push(bytes);: NOT RE-KEYED yet (its line holds more mutants than the 4 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: SAME_BLOCKS)
  // stream-runs.ts
  // if (this.length > 0 && this.streams[this.streams.length - 1] === stream) return;: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'with no run held the last stream is undefined, so the length check never decides')
  // while (this.length > 1 && this.starts[this.head + 1]! <= offset) this.head += 1;: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'with one run held the next start is undefined, so the length check never decides')
  // if (this.head >= COMPACT_AFTER && this.head * 2 >= this.starts.length) {: NOT RE-KEYED yet (its line holds more mutants than the 8 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'when the dropped slots are compacted away: memory only')
  // let high = this.length - 1;
  {
    file: 'src/stream-runs.ts',
    line: 58,
    column: 16,
    mutator: 'ArithmeticOperator',
    replacement: 'this.length + 1',
    why: 'starting the search two slots past the end: their starts are undefined, so it narrows to the same run',
  },
  // if (this.start(high) <= offset) return high;: NOT RE-KEYED yet (its line holds more mutants than the 2 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: a shortcut before a search or loop that reaches the same answer without it)
  // utf8.ts
  // code >= 0xdc00 && code <= 0xdfff && index >= 2 && isHighSurrogate(text.charCodeAt(index - 2));: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'at index 1 the unit before is charCodeAt(-1), NaN, never a high surrogate')
  // return index === 0 ? text : text.slice(index);: NOT RE-KEYED yet (its line holds more mutants than the 1 listed, and the run to tell which survive did not fit on 2026-12-03): all its survivors are counted; the reason was: 'text.slice(0) is the text')
];

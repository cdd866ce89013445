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

// Surviving mutants no test can tell from the original, by source line and how many survive
// there at most (tooling/scripts/verify-static.mjs sets a line aside only while no more
// survive on it). Most
// choose between two paths that give the same answer (a fast path, a cache, a shortcut in a
// search) or change how bytes are laid out in memory, not which bytes are held.
const SAME_BLOCKS = 'block sizes and reuse: where bytes sit in memory, never which bytes are held';
const FAST_PATH = 'chooses between a fast path and the general one, which give the same result';
const CACHE = 'the newest chunk kept for drain(): without it drain() decodes the same text from storage';
const SHORTCUT = 'a shortcut before a search or loop that reaches the same answer without it';
export const equivalent = [
  // output-log.ts
  { file: 'src/output-log.ts', line: 'const FIRST_BLOCK_BYTES = 16 * 1024;', survivors: 1, why: SAME_BLOCKS },
  { file: 'src/output-log.ts', line: 'const LAST_CHUNK_UNITS = 1024 * 1024;', survivors: 1, why: CACHE },
  {
    file: 'src/output-log.ts',
    line: "private lastStream: OutputStream = 'stdout';",
    survivors: 1,
    why: 'an initial value every append overwrites before drain() reads it',
  },
  {
    file: 'src/output-log.ts',
    line: 'const maxBlockBytes = Math.min(MAX_BLOCK_BYTES, this.maxRetainedBytes);',
    survivors: 1,
    why: SAME_BLOCKS,
  },
  {
    file: 'src/output-log.ts',
    line: 'if (this.tailAt !== this.total) {',
    survivors: 1,
    why: 'recomputing the tail every time instead of caching it gives the same tail',
  },
  {
    file: 'src/output-log.ts',
    line: 'if (chunk.length === 0) return;',
    survivors: 1,
    why: 'an empty chunk stored adds 0 bytes and a run of length 0, which no read or drain visits',
  },
  {
    file: 'src/output-log.ts',
    line: 'if (text.length > cap || (text.length * MAX_BYTES_PER_UNIT > cap && Buffer.byteLength(text) > cap)) {',
    survivors: 11,
    why: `${FAST_PATH}: a chunk over the cap stored whole is then evicted to the same boundary`,
  },
  {
    file: 'src/output-log.ts',
    line: 'if (text.length <= LAST_CHUNK_UNITS || text.length <= this.undrainedCap) {',
    survivors: 10,
    why: CACHE,
  },
  {
    file: 'src/output-log.ts',
    line: 'if (this.total - this.first > cap) this.evict();',
    survivors: 1,
    why: 'evicting again when within the cap rounds to the same first boundary (truncated is already set)',
  },
  {
    file: 'src/output-log.ts',
    line: 'let i = position < this.total ? this.runs.indexOf(position) : this.runs.length;',
    survivors: 2,
    why: `${SHORTCUT}: at the end the newest run is visited and yields nothing`,
  },
  {
    file: 'src/output-log.ts',
    line: 'i < this.runs.length;',
    survivors: 1,
    why: 'one step past the last run decodes nothing from the end',
  },
  {
    file: 'src/output-log.ts',
    line: 'if (budget === 0) break;',
    survivors: 1,
    why: `${SHORTCUT}: a full page cut at the next run takes no bytes and stops there`,
  },
  {
    file: 'src/output-log.ts',
    line: 'if (from < floor) {',
    survivors: 1,
    why: 'at from == floor nothing is dropped',
  },
  {
    file: 'src/output-log.ts',
    line: 'const last = this.lastText !== undefined && from >= this.lastStart ? this.lastEnd(from) : undefined;',
    survivors: 2,
    why: CACHE,
  },
  { file: 'src/output-log.ts', line: 'if (last !== undefined) {', survivors: 1, why: CACHE },
  {
    file: 'src/output-log.ts',
    line: '} else if (from < this.total) {',
    survivors: 2,
    why: `${SHORTCUT}: from the end there is nothing to decode`,
  },
  {
    file: 'src/output-log.ts',
    line: 'private lastEnd(from: number): string | undefined {',
    survivors: 1,
    why: CACHE,
  },
  { file: 'src/output-log.ts', line: 'if (from === this.lastStart) return text;', survivors: 1, why: CACHE },
  {
    file: 'src/output-log.ts',
    line: 'return this.lastSize === text.length ? text.slice(from - this.lastStart) : undefined;',
    survivors: 1,
    why: CACHE,
  },
  {
    file: 'src/output-log.ts',
    line: "const bytes = Buffer.from(text, 'utf8');",
    survivors: 1,
    why: "Node reads the encoding '' as its default, UTF-8",
  },
  {
    file: 'src/output-log.ts',
    line: 'while (cut < bytes.length && isContinuation(bytes[cut]!)) cut += 1;',
    survivors: 5,
    why: 'the eviction that always follows rounds the first retained byte to the same boundary',
  },
  // byte-store.ts
  {
    file: 'src/byte-store.ts',
    line: 'this.minBlock = Math.min(this.maxBlock, Math.max(MIN_BLOCK_BYTES, sizes.minBlockBytes));',
    survivors: 1,
    why: SAME_BLOCKS,
  },
  {
    file: 'src/byte-store.ts',
    line: 'if (text.length >= MEASURE_FIRST_UNITS) {',
    survivors: 5,
    why: `${FAST_PATH} (a chunk measured or not is stored as the same bytes)`,
  },
  {
    file: 'src/byte-store.ts',
    line: 'if (size === text.length) this.appendAscii(text);',
    survivors: 1,
    why: `${FAST_PATH} (ASCII encoded as UTF-8 instead of copied)`,
  },
  {
    file: 'src/byte-store.ts',
    line: 'else if (size <= room) this.write(block, text, room);',
    survivors: 2,
    why: `${FAST_PATH} (encoded whole and copied in whole characters instead)`,
  },
  {
    file: 'src/byte-store.ts',
    line: "else this.appendBytes(Buffer.from(text, 'utf8'));",
    survivors: 1,
    why: "Node reads the encoding '' as its default, UTF-8",
  },
  {
    file: 'src/byte-store.ts',
    line: 'if (text.length * MAX_BYTES_PER_UNIT <= room) return this.write(block, text, room);',
    survivors: 2,
    why: FAST_PATH,
  },
  {
    file: 'src/byte-store.ts',
    line: 'if (size <= room) return this.write(block, text, room);',
    survivors: 2,
    why: FAST_PATH,
  },
  {
    file: 'src/byte-store.ts',
    line: 'if (size === text.length) this.appendAscii(text);',
    survivors: 1,
    why: `${FAST_PATH} (ASCII copied in whole characters)`,
  },
  {
    file: 'src/byte-store.ts',
    line: "else this.appendBytes(Buffer.from(text, 'utf8'));",
    survivors: 1,
    why: "Node reads the encoding '' as its default, UTF-8",
  },
  {
    file: 'src/byte-store.ts',
    line: 'if (at + count < bytes.length) while (count > 0 && isContinuation(bytes[at + count]!)) count -= 1;',
    survivors: 5,
    why: 'guards that never bind: past the end the byte is undefined (no continuation), and a copy starts on a character, so count never reaches 0',
  },
  {
    file: 'src/byte-store.ts',
    line: 'if (this.head > 16 && this.head * 2 >= this.blocks.length) {',
    survivors: 8,
    why: 'when the dropped slots are compacted away: memory only',
  },
  {
    file: 'src/byte-store.ts',
    line: 'for (let i = this.find(from); i < this.blocks.length; i++) {',
    survivors: 1,
    why: 'the loop always stops at `to`, inside the blocks held',
  },
  {
    file: 'src/byte-store.ts',
    line: 'if (stop === to) break;',
    survivors: 1,
    why: 'blocks after `to` decode an empty range',
  },
  {
    file: 'src/byte-store.ts',
    line: "const size = block.bytes.write(text, block.used, room, 'utf8');",
    survivors: 1,
    why: "Node reads the encoding '' as its default, UTF-8",
  },
  {
    file: 'src/byte-store.ts',
    line: "block.bytes.write(text.slice(at, at + count), block.used, count, 'latin1');",
    survivors: 1,
    why: "only ASCII comes here, the same bytes in UTF-8 (Node's default for '')",
  },
  {
    file: 'src/byte-store.ts',
    line: 'return block === undefined || block.used === block.limit ? this.addBlock() : block;',
    survivors: 1,
    why: `${SAME_BLOCKS} (a new block for every append)`,
  },
  {
    file: 'src/byte-store.ts',
    line: 'return this.blocks.length > this.head ? this.blocks[this.blocks.length - 1] : undefined;',
    survivors: 2,
    why: 'with no block held the array is empty, and its last slot is undefined either way',
  },
  {
    file: 'src/byte-store.ts',
    line: 'if (this.blocks[high]!.start <= offset) return high;',
    survivors: 2,
    why: SHORTCUT,
  },
  {
    file: 'src/byte-store.ts',
    line: 'if (high > low && this.blocks[low + 1]!.start > offset) return low;',
    survivors: 4,
    why: SHORTCUT,
  },
  {
    file: 'src/byte-store.ts',
    line: 'const held = this.written - this.start;',
    survivors: 1,
    why: SAME_BLOCKS,
  },
  {
    file: 'src/byte-store.ts',
    line: 'while (size < held && size < this.maxBlock) size *= 2;',
    survivors: 8,
    why: SAME_BLOCKS,
  },
  {
    file: 'src/byte-store.ts',
    line: 'size = Math.min(size, this.maxBlock);',
    survivors: 1,
    why: SAME_BLOCKS,
  },
  { file: 'src/byte-store.ts', line: 'size === this.maxBlock', survivors: 3, why: SAME_BLOCKS },
  {
    file: 'src/byte-store.ts',
    line: 'private recycle(bytes: Buffer): void {',
    survivors: 1,
    why: SAME_BLOCKS,
  },
  {
    file: 'src/byte-store.ts',
    line: 'if (bytes.length === this.maxBlock && this.spares.length < MAX_SPARES) this.spares.push(bytes);',
    survivors: 4,
    why: SAME_BLOCKS,
  },
  // stream-runs.ts
  {
    file: 'src/stream-runs.ts',
    line: 'if (this.length > 0 && this.streams[this.streams.length - 1] === stream) return;',
    survivors: 2,
    why: 'with no run held the last stream is undefined, so the length check never decides',
  },
  {
    file: 'src/stream-runs.ts',
    line: 'while (this.length > 1 && this.starts[this.head + 1]! <= offset) this.head += 1;',
    survivors: 2,
    why: 'with one run held the next start is undefined, so the length check never decides',
  },
  {
    file: 'src/stream-runs.ts',
    line: 'if (this.head >= COMPACT_AFTER && this.head * 2 >= this.starts.length) {',
    survivors: 8,
    why: 'when the dropped slots are compacted away: memory only',
  },
  {
    file: 'src/stream-runs.ts',
    line: 'let high = this.length - 1;',
    survivors: 1,
    why: 'starting the search two slots past the end: their starts are undefined, so it narrows to the same run',
  },
  {
    file: 'src/stream-runs.ts',
    line: 'if (this.start(high) <= offset) return high;',
    survivors: 2,
    why: SHORTCUT,
  },
  // utf8.ts
  {
    file: 'src/utf8.ts',
    line: 'code >= 0xdc00 && code <= 0xdfff && index >= 2 && isHighSurrogate(text.charCodeAt(index - 2));',
    survivors: 1,
    why: 'at index 1 the unit before is charCodeAt(-1), NaN, never a high surrogate',
  },
  {
    file: 'src/utf8.ts',
    line: 'return index === 0 ? text : text.slice(index);',
    survivors: 1,
    why: 'text.slice(0) is the text',
  },
];

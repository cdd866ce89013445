import { mutationConfig } from '../../tooling/stryker.shared.mjs';

export default mutationConfig('core-types', { breakAt: 90 });

// Surviving mutants no test can tell from the original, by source line and how many survive
// there at most (tooling/scripts/verify-static.mjs sets a line aside only while no more
// survive on it). Utf8ChunkDecoder's ASCII path is a speed-up only: every mutant below turns it
// off for some chunks, which then go through the StringDecoder and decode to the same string
// (test/utf8-decoder.test.ts compares every chunk with a StringDecoder's, fixed and random).
const SLOW_PATH = 'only sends more chunks through the StringDecoder, which gives the same strings';
export const equivalent = [
  {
    file: 'src/utf8-decoder.ts',
    line: "readonly #decoder = new StringDecoder('utf8');",
    survivors: 1,
    why: "StringDecoder('') is a UTF-8 decoder too (its default encoding)",
  },
  { file: 'src/utf8-decoder.ts', line: '#clean = true;', survivors: 1, why: `starting unclean ${SLOW_PATH}` },
  {
    file: 'src/utf8-decoder.ts',
    line: "if (chunk.length === 0) return '';",
    survivors: 1,
    why: 'an empty chunk then reaches the ASCII path (isAscii of nothing), which returns the empty string',
  },
  {
    file: 'src/utf8-decoder.ts',
    line: 'if (this.#clean && isAscii(chunk)) {',
    survivors: 2,
    why: `never taking the ASCII path ${SLOW_PATH}`,
  },
  {
    file: 'src/utf8-decoder.ts',
    line: 'this.#clean = chunk[chunk.length - 1]! < 0x80;',
    survivors: 2,
    why: `never clean again (false, or reading past the end: undefined < 0x80 is false) ${SLOW_PATH}`,
  },
  {
    file: 'src/utf8-decoder.ts',
    line: 'this.#clean = true;',
    survivors: 1,
    why: `unclean after end() ${SLOW_PATH}`,
  },
];

import { mutationConfig } from '../../tooling/stryker.shared.mjs';

export default mutationConfig('core-types', { breakAt: 90 });

// Surviving mutants no test can tell from the original, each named by file, line, column, mutator
// and replacement (tooling/scripts/verify-static.mjs sets aside exactly those; a comment above each
// group quotes its source line). Utf8ChunkDecoder's ASCII path is a speed-up only: every mutant
// below turns it off for some chunks, which then go through the StringDecoder and decode to the
// same string (test/utf8-decoder.test.ts compares every chunk with a StringDecoder's, fixed and
// random).
const SLOW_PATH = 'only sends more chunks through the StringDecoder, which gives the same strings';
export const equivalent = [
  // readonly #decoder = new StringDecoder('utf8');
  {
    file: 'src/utf8-decoder.ts',
    line: 15,
    column: 41,
    mutator: 'StringLiteral',
    replacement: '""',
    why: "StringDecoder('') is a UTF-8 decoder too (its default encoding)",
  },
  // #clean = true;
  {
    file: 'src/utf8-decoder.ts',
    line: 16,
    column: 12,
    mutator: 'BooleanLiteral',
    replacement: 'false',
    why: `starting unclean ${SLOW_PATH}`,
  },
  // if (chunk.length === 0) return '';
  {
    file: 'src/utf8-decoder.ts',
    line: 20,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'an empty chunk then reaches the ASCII path (isAscii of nothing), which returns the empty string',
  },
  // if (this.#clean && isAscii(chunk)) {
  {
    file: 'src/utf8-decoder.ts',
    line: 21,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: `never taking the ASCII path ${SLOW_PATH}`,
  },
  {
    file: 'src/utf8-decoder.ts',
    line: 21,
    column: 40,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: `never taking the ASCII path ${SLOW_PATH}`,
  },
  // this.#clean = chunk[chunk.length - 1]! < 0x80;
  {
    file: 'src/utf8-decoder.ts',
    line: 24,
    column: 19,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: `never clean again (false, or reading past the end: undefined < 0x80 is false) ${SLOW_PATH}`,
  },
  {
    file: 'src/utf8-decoder.ts',
    line: 24,
    column: 25,
    mutator: 'ArithmeticOperator',
    replacement: 'chunk.length + 1',
    why: `never clean again (false, or reading past the end: undefined < 0x80 is false) ${SLOW_PATH}`,
  },
  // this.#clean = true;
  {
    file: 'src/utf8-decoder.ts',
    line: 30,
    column: 19,
    mutator: 'BooleanLiteral',
    replacement: 'false',
    why: `unclean after end() ${SLOW_PATH}`,
  },
];

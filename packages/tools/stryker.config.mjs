import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// Parameter checks: pure functions with their own tests (the rest of the
// package drives real processes through the tool surface).
export default mutationConfig('tools', {
  breakAt: 95,
  mutate: ['src/params.ts'],
  tests: ['test/params.test.ts', 'test/params-bounds.test.ts'],
});

// Surviving mutants no test can tell from the original, each named by file, line, column, mutator
// and replacement (tooling/scripts/verify-static.mjs sets aside exactly those; a comment above each
// group quotes its source line).
export const equivalent = [
  // if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
  {
    file: 'src/params.ts',
    line: 106,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '106:34',
    why: 'typeof value !== number → false: Number.isInteger of anything not a number is false, so it is refused all the same',
  },
  // if (typeof value !== 'number' || !Number.isFinite(value)) {
  {
    file: 'src/params.ts',
    line: 119,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '119:34',
    why: 'typeof value !== number → false: Number.isFinite of anything not a number is false, so it is refused all the same',
  },
  // if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
  {
    file: 'src/params.ts',
    line: 136,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '136:34',
    why: 'typeof value !== string → false: the allowed choices are strings, so a non-string is never among them',
  },
  // if (options.maxChars !== undefined && value.length > options.maxChars) {
  {
    file: 'src/params.ts',
    line: 83,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '83:39',
    why: 'maxChars !== undefined → true: a length is never greater than undefined',
  },
];

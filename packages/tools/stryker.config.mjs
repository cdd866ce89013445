import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// Truncation and parameter checks: pure functions with their own tests (the rest of the
// package drives real processes through the tool surface).
export default mutationConfig('tools', {
  breakAt: 95,
  mutate: ['src/truncate.ts', 'src/params.ts'],
  tests: [
    'test/truncate.test.ts',
    'test/params.test.ts',
    'test/params-bounds.test.ts',
    'test/truncate-edges.test.ts',
  ],
});

// Surviving mutants no test can tell from the original, each named by file, line, column, mutator
// and replacement (tooling/scripts/verify-static.mjs sets aside exactly those; a comment above each
// group quotes its source line).
export const equivalent = [
  // if (tailStart < headEnd) tailStart = headEnd;
  {
    file: 'src/truncate.ts',
    line: 166,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'never binds: the tail is searched from max(headEnd, ...) - 1, so it starts at headEnd at the earliest (and at equality the assignment changes nothing)',
  },
  {
    file: 'src/truncate.ts',
    line: 166,
    column: 7,
    mutator: 'EqualityOperator',
    replacement: 'tailStart <= headEnd',
    why: 'never binds: the tail is searched from max(headEnd, ...) - 1, so it starts at headEnd at the earliest (and at equality the assignment changes nothing)',
  },
  // if (i > 0 && i < text.length && code >= 0xdc00 && code <= 0xdfff) return forward ? i + 1 : i - 1;
  {
    file: 'src/truncate.ts',
    line: 174,
    column: 16,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'i < text.length: at the end charCodeAt gives NaN, which is no low surrogate either',
  },
  {
    file: 'src/truncate.ts',
    line: 174,
    column: 16,
    mutator: 'EqualityOperator',
    replacement: 'i <= text.length',
    why: 'i < text.length: at the end charCodeAt gives NaN, which is no low surrogate either',
  },
  // candidates += 1;
  {
    file: 'src/truncate.ts',
    line: 191,
    column: 5,
    mutator: 'AssignmentOperator',
    replacement: 'candidates -= 1',
    why: 'the count is only compared with 0, and -n is 0 exactly when n is',
  },
  // line.text.length > MAX_ERROR_LINE_CHARS
  {
    file: 'src/truncate.ts',
    line: 193,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'a line of at most 400 characters cut at 400 is the whole line (and gets no marker)',
  },
  {
    file: 'src/truncate.ts',
    line: 193,
    column: 7,
    mutator: 'EqualityOperator',
    replacement: 'line.text.length >= MAX_ERROR_LINE_CHARS',
    why: 'a line of at most 400 characters cut at 400 is the whole line (and gets no marker)',
  },
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

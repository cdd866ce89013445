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

// Surviving mutants no test can tell from the original, by source line and how many survive
// there at most (tooling/scripts/verify-static.mjs sets a line aside only while no more
// survive on it).
export const equivalent = [
  {
    file: 'src/truncate.ts',
    line: 'if (tailStart < headEnd) tailStart = headEnd;',
    survivors: 2,
    why: 'never binds: the tail is searched from max(headEnd, ...) - 1, so it starts at headEnd at the earliest (and at equality the assignment changes nothing)',
  },
  {
    file: 'src/truncate.ts',
    line: 'if (i > 0 && i < text.length && code >= 0xdc00 && code <= 0xdfff) return forward ? i + 1 : i - 1;',
    survivors: 2,
    why: 'i < text.length: at the end charCodeAt gives NaN, which is no low surrogate either',
  },
  {
    file: 'src/truncate.ts',
    line: 'candidates += 1;',
    survivors: 1,
    why: 'the count is only compared with 0, and -n is 0 exactly when n is',
  },
  {
    file: 'src/truncate.ts',
    line: 'line.text.length > MAX_ERROR_LINE_CHARS',
    survivors: 2,
    why: 'a line of at most 400 characters cut at 400 is the whole line (and gets no marker)',
  },
  {
    file: 'src/params.ts',
    line: "if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {",
    survivors: 1,
    why: 'typeof value !== number → false: Number.isInteger of anything not a number is false, so it is refused all the same',
  },
  {
    file: 'src/params.ts',
    line: "if (typeof value !== 'number' || !Number.isFinite(value)) {",
    survivors: 1,
    why: 'typeof value !== number → false: Number.isFinite of anything not a number is false, so it is refused all the same',
  },
  {
    file: 'src/params.ts',
    line: "if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {",
    survivors: 1,
    why: 'typeof value !== string → false: the allowed choices are strings, so a non-string is never among them',
  },
  {
    file: 'src/params.ts',
    line: 'if (options.maxChars !== undefined && value.length > options.maxChars) {',
    survivors: 1,
    why: 'maxChars !== undefined → true: a length is never greater than undefined',
  },
];

import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// The whole registry is pure: the limits, ids, owners, retention and the book of sessions,
// against its own suites (none spawns a process).
export default mutationConfig('registry', {
  breakAt: 90,
});

// Surviving mutants no test can tell from the original, each named by file, line, column,
// mutator and replacement (tooling/scripts/verify-static.mjs); a comment above each group
// quotes its source line.
export const equivalent = [
  // if (kept.length > rule.maxEnded) {
  {
    file: 'src/retention.ts',
    line: 41,
    column: 7,
    mutator: 'EqualityOperator',
    replacement: 'kept.length >= rule.maxEnded',
    why: 'at exactly the cap the cut is kept.slice(0, 0), nothing; the sort only reorders a local list',
  },
  // const session = typeof id === 'string' ? book.sessions.get(id) : undefined;
  {
    file: 'src/session-book.ts',
    line: 104,
    column: 19,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'the book is keyed by string ids, so Map.get of any other value is undefined: the same refusal',
  },
];

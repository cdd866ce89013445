import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// The sessions package's pure modules: the command policy (the transcript's are mutated in
// @procmux/transcript). The rest runs real processes and is tested on them, not mutated.
export default mutationConfig('sessions', {
  breakAt: 90,
  mutate: ['src/session/policy.ts'],
  tests: ['test/pure.test.ts', 'test/policy-mutants.test.ts'],
});

// Surviving mutants no test can tell from the original, each named by file, line, column,
// mutator and replacement (tooling/scripts/verify-static.mjs).
export const equivalent = [
  // const reason = typeof decision === 'object' && decision?.reason ? `: ${decision.reason}` : '';
  {
    file: 'src/session/policy.ts',
    line: 52,
    column: 18,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '52:46',
    why: 'a boolean decision has no reason either way: (false)?.reason is undefined',
  },
];

import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// The sessions package's pure modules: the transcript (its reader, line index and walk), the
// limits, the command policy and the session ids. The rest runs real processes and is tested
// on them, not mutated.
export default mutationConfig('sessions', {
  breakAt: 90,
  mutate: [
    'src/transcript.ts',
    'src/transcript-index.ts',
    'src/transcript-walk.ts',
    'src/limits.ts',
    'src/policy.ts',
    'src/session-id.ts',
  ],
  tests: [
    'test/transcript.test.ts',
    'test/transcript-index.test.ts',
    'test/transcript-render.test.ts',
    'test/pure.test.ts',
    'test/session-id.test.ts',
  ],
});

// Surviving mutants no test can tell from the original, each named by file, line, column,
// mutator and replacement (tooling/scripts/verify-static.mjs).
export const equivalent = [];

import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// Truncation and parameter checks: pure functions with their own tests (the rest of the
// package drives real processes through the tool surface).
export default mutationConfig('tools', {
  breakAt: 80,
  mutate: ['src/truncate.ts', 'src/params.ts'],
  tests: [
    'test/truncate.test.ts',
    'test/params.test.ts',
    'test/params-bounds.test.ts',
    'test/truncate-edges.test.ts',
  ],
});

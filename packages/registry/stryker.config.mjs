import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// The output log and the byte store under it (the pure part of the registry).
export default mutationConfig('registry', {
  breakAt: 70,
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

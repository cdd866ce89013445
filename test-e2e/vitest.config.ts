import { packageTestConfig } from '../tooling/vitest.shared.ts';

// End-to-end suites import the built packages (dist/), as a consumer would.
export default packageTestConfig({
  include: ['**/*.e2e.test.ts'],
  useBuilt: true,
  resultFile: 'test-results/e2e.json',
  testTimeout: 120_000,
});

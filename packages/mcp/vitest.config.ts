import { mergeConfig } from 'vitest/config';
import { packageTestConfig } from '../../tooling/vitest.shared.ts';

// The CLI entry (src/cli.ts) only runs as a child process, which coverage does not see.
export default mergeConfig(packageTestConfig({ coverageLines: 90 }), {
  test: { globalSetup: ['test/global-setup.ts'] },
});

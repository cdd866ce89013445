import { mergeConfig } from 'vitest/config';
import { packageTestConfig } from '../../tooling/vitest.shared.ts';

// The CLI entry (src/cli.ts) only runs as a child process, which coverage does not see. The HTTP
// transport, adoption, --store and prune have in-process tests as well as their CLI ones
// (http-host, adoption, prune), so the floor stays 90.
export default mergeConfig(packageTestConfig({ coverageLines: 90 }), {
  test: { globalSetup: ['test/global-setup.ts'] },
});

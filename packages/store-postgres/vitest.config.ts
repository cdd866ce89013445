import { packageTestConfig } from '../../tooling/vitest.shared.ts';

// Without a server the store's code cannot run, so coverage is only enforced where the
// PostgreSQL tests run (CI always has PROCMUX_PG_URL; there a missing server fails the tests).
export default packageTestConfig({ coverageLines: process.env.PROCMUX_PG_URL ? 90 : undefined });

import { packageTestConfig } from '../../tooling/vitest.shared.ts';

// 85, not 90: the full-screen episode tracker and the foreground probe are driven through real
// PTYs by @procmux/sessions' tests (full-screen-log, transcript-index), which this run cannot see.
export default packageTestConfig({ coverageLines: 85 });

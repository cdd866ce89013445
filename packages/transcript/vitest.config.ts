import { packageTestConfig } from '../../tooling/vitest.shared.ts';

export default packageTestConfig({ coverageLines: 90 });

import { packageTestConfig } from '../vitest.shared.ts';

export default packageTestConfig();

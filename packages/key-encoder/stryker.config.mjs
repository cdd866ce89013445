import { mutationConfig } from '../../tooling/stryker.shared.mjs';

export default mutationConfig('key-encoder', { breakAt: 90 });

import { mutationConfig } from '../../tooling/stryker.shared.mjs';

export default mutationConfig('core-types', { breakAt: 90 });

import { mutationConfig } from '../../tooling/stryker.shared.mjs';

export default mutationConfig('shell-wrap', { breakAt: 95 });

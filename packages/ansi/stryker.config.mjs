import { mutationConfig } from '../../tooling/stryker.shared.mjs';

export default mutationConfig('ansi', { breakAt: 0 });

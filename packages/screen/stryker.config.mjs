import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// The tmux differential and the live-PTY tests drive real processes; the recorded fixtures,
// the property test and the unit tests cover the same code in-process.
export default mutationConfig('screen', {
  breakAt: 80,
  tests: [
    'test/screen.test.ts',
    'test/delta.test.ts',
    'test/options.test.ts',
    'test/parse-queue.test.ts',
    'test/property.test.ts',
    'test/recorded.test.ts',
    'test/anchor.test.ts',
  ],
});

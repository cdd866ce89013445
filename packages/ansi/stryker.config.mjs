import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// large-input.test.ts (10 MB lines, a 60 s budget) times out under Stryker's instrumentation;
// it guards speed and memory on huge inputs, and the other suites cover the same logic.
export default mutationConfig('ansi', {
  breakAt: 0,
  tests: [
    'test/dsr.test.ts',
    'test/mode-tracker.test.ts',
    'test/stream.test.ts',
    'test/strip.test.ts',
    'test/terminal-parity.test.ts',
  ],
});

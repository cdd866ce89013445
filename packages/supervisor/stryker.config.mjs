import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// The supervisor's pure modules: the output capture, the target resolution (shells, Windows
// command lines), the timers, the platform package choice and the watchdog's protocol, loop
// and host-death kill (their effects injected). The modules that spawn and wire real
// processes (supervisor, run, child-adapter, cancellable-spawn, stdin-terminal, the watchdog's
// process) are tested on real processes and not mutated.
export default mutationConfig('supervisor', {
  breakAt: 90,
  mutate: [
    'src/capture.ts',
    'src/target.ts',
    'src/timeouts.ts',
    'src/platform.ts',
    'src/watchdog/protocol.ts',
    'src/watchdog/loop.ts',
    'src/watchdog/host-death-kill.ts',
  ],
  tests: [
    'test/capture.test.ts',
    'test/target.test.ts',
    'test/timeouts.test.ts',
    'test/platform.test.ts',
    'test/watchdog.test.ts',
  ],
});

// Surviving mutants no test can tell from the original, each named by file, line, column,
// mutator and replacement (tooling/scripts/verify-static.mjs).
export const equivalent = [];

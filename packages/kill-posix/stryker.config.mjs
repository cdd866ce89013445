import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// The pure logic: which processes form a tree, the kill rounds over injected effects, the
// /proc and ps parsers, options and the platform wiring. Not mutated: the lines that touch the
// real system (readProcFile and the /proc walk, spawning ps, killProcessTree and
// snapshotProcessTree, which only hand the real effects over); the suites on real processes
// (kill-process-tree, ps-path-real) test those and are not run here: they cost seconds per
// mutant, and the logic they cross is killed in the simulated world (test/fake-world.ts).
export default mutationConfig('kill-posix', {
  breakAt: 90,
  mutate: [
    'src/tree.ts',
    'src/options.ts',
    'src/kill-tree.ts:1-199',
    'src/platform.ts:1-107',
    'src/procfs.ts:1-44',
    'src/ps.ts:1-76',
    'src/snapshot.ts:1-29',
  ],
  tests: [
    'test/kill-tree.test.ts',
    'test/options.test.ts',
    'test/platform.test.ts',
    'test/procfs.test.ts',
    'test/ps.test.ts',
    'test/ps-environment.test.ts',
    'test/tree.test.ts',
  ],
});

// Surviving mutants no test can tell from the original, each named by file, line, column,
// mutator and replacement (tooling/scripts/verify-static.mjs).
export const equivalent = [];

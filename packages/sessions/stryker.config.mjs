import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// The sessions package's pure modules, in two parts each scored on its own
// (`pnpm mutate --filter @procmux/sessions --part input-wait`; both without --part):
// - policy: the command policy (the transcript's modules are mutated in @procmux/transcript);
// - input-wait: whether a program waits for input, asked of the kernel (/proc parsed, the
//   process tree, the blocked call and its descriptors, effects injected) or guessed (the
//   heuristic, the prompt line), the watch that keeps one session's state, the foreground
//   program, and the real /proc effects (tested on real processes and terminals).
// The rest runs real processes and is tested on them, not mutated.
export default mutationConfig('sessions', {
  breakAt: 90,
  parts: {
    policy: {
      mutate: ['src/session/policy.ts'],
      tests: ['test/pure.test.ts', 'test/policy-mutants.test.ts'],
    },
    'input-wait': {
      mutate: ['src/input-wait/*.ts'],
      tests: [
        'test/input-detect.test.ts',
        'test/input-terminal-stdin.test.ts',
        'test/input-watch.test.ts',
        'test/foreground-program.test.ts',
        'test/input-wait/*.test.ts',
      ],
    },
  },
});

// Surviving mutants no test can tell from the original, each named by file, line, column,
// mutator and replacement (tooling/scripts/verify-static.mjs).
export const equivalent = [
  // const reason = typeof decision === 'object' && decision?.reason ? `: ${decision.reason}` : '';
  {
    file: 'src/session/policy.ts',
    line: 52,
    column: 18,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '52:46',
    why: 'a boolean decision has no reason either way: (false)?.reason is undefined',
  },
];

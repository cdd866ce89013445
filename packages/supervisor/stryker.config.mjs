import { mutationConfig } from '../../tooling/stryker.shared.mjs';

// The supervisor's pure modules, in two parts each scored on its own
// (`pnpm mutate --filter @procmux/supervisor --part contain`; both without --part):
// - core: the output capture, the target resolution (shells, Windows command lines), the
//   timers, the platform package choice and the watchdog's protocol, loop and host-death kill
//   (their effects injected);
// - contain: where the host's cgroup is (/proc/self/cgroup and mountinfo parsed), the plan of a
//   session's cgroup (which hierarchy, which files), and the pid namespace's support check and
//   program lookup (effects injected; not the lines that hand the real ones over).
// The modules that spawn and wire real processes (supervisor, run, child-adapter,
// cancellable-spawn, stdin-terminal, the watchdog's process, the cgroup's making and killing)
// are tested on real processes and not mutated; nor, this round, pid-namespace/wrap.ts and
// systemd-scope/ (rewritten beside this work).
export default mutationConfig('supervisor', {
  breakAt: 90,
  parts: {
    core: {
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
    },
    contain: {
      mutate: [
        'src/cgroup/layout.ts',
        'src/cgroup/plan.ts',
        'src/pid-namespace/program-pid.ts',
        'src/pid-namespace/support.ts',
        'src/pid-namespace/aim-signals.ts:23-43',
      ],
      tests: [
        'test/cgroup/layout.test.ts',
        'test/cgroup/plan.test.ts',
        'test/pid-namespace/support.test.ts',
        'test/pid-namespace/wrap.test.ts',
        'test/cgroup/*-mutants.test.ts',
        'test/pid-namespace/*-mutants.test.ts',
      ],
    },
  },
});

// Surviving mutants no test can tell from the original, each named by file, line, column,
// mutator and replacement (tooling/scripts/verify-static.mjs); a comment above each group
// quotes its source line.
const ONE_CHUNK =
  'with one chunk held, units minus its length is 0, never at or over the cap (a cap of 0 returns before)';
const EMPTY_ENCODING = 'Buffer reads an empty encoding name as UTF-8, the default';
const PAST_THE_END =
  'head[head.length] is undefined, and undefined & 0xc0 is 0, no continuation byte: the loop stops at the end either way';
export const equivalent = [
  // while (this.chunks.length > 1 && this.units - this.chunks[0]!.length >= this.maxBytes) {
  {
    file: 'src/capture.ts',
    line: 33,
    column: 12,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: ONE_CHUNK,
  },
  {
    file: 'src/capture.ts',
    line: 33,
    column: 12,
    mutator: 'EqualityOperator',
    replacement: 'this.chunks.length >= 1',
    why: ONE_CHUNK,
  },
  // if (this.units > 2 * this.maxBytes) this.trim();
  {
    file: 'src/capture.ts',
    line: 37,
    column: 9,
    mutator: 'EqualityOperator',
    replacement: 'this.units >= 2 * this.maxBytes',
    why: 'exactly twice the cap is cut now or at the next append or read: the bound (twice the cap) holds and the text is the same either way',
  },
  // const sizes = this.chunks.map((chunk) => Buffer.byteLength(chunk, 'utf8'));
  {
    file: 'src/capture.ts',
    line: 52,
    column: 71,
    mutator: 'StringLiteral',
    replacement: '""',
    why: EMPTY_ENCODING,
  },
  // while (total - sizes[0]! >= this.maxBytes) {
  {
    file: 'src/capture.ts',
    line: 56,
    column: 12,
    mutator: 'EqualityOperator',
    replacement: 'total - sizes[0]! > this.maxBytes',
    why: 'a head chunk exactly over the cap is kept, then cut at its own length: nothing of it is kept, as when it is dropped whole',
  },
  // const head = Buffer.from(this.chunks[0]!, 'utf8');
  {
    file: 'src/capture.ts',
    line: 60,
    column: 47,
    mutator: 'StringLiteral',
    replacement: '""',
    why: EMPTY_ENCODING,
  },
  // while (start < head.length && (head[start]! & 0xc0) === 0x80) start += 1;
  {
    file: 'src/capture.ts',
    line: 63,
    column: 12,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: PAST_THE_END,
  },
  {
    file: 'src/capture.ts',
    line: 63,
    column: 12,
    mutator: 'EqualityOperator',
    replacement: 'start <= head.length',
    why: PAST_THE_END,
  },
  // if (kept.length === 0) this.chunks.shift();
  {
    file: 'src/capture.ts',
    line: 66,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'an empty head chunk left in place holds 0 units and joins to nothing; the next append drops it',
  },
  // if (this.stopped) return;
  {
    file: 'src/timeouts.ts',
    line: 40,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'dispose() clears both timers, so no timer fires once stopped; the first to fire disposes before it calls back',
  },
  // signalled: [],
  {
    file: 'src/watchdog/host-death-kill.ts',
    line: 48,
    column: 24,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: "a failed kill's stand-in report: only its survivors are read",
  },
];

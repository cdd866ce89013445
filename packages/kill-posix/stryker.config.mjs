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
// mutator and replacement (tooling/scripts/verify-static.mjs); a comment above each group
// quotes its source line.
const STATE_LETTER =
  'the state is cut to its first letter (match[4].slice(0, 1)), so one letter or all read the same';
const ROUND_ZERO =
  'at round 0 nothing is SIGKILLed yet, so every() is false unless there is no member, and a round with no member sends nothing';
const NO_LIVE_MEMBER =
  'with no live member and no group the kill signals nothing either way: it only takes another snapshot, finds nothing and reports nothing';
const LOW_GROUP =
  'group 0 or 1 is refused below anyway: add() never takes pid 0 or 1, so all.has() is false, and the root is never pid 1 (validatePid)';
export const equivalent = [
  // return `${entry.pid}@${entry.startTime ?? ''}`;
  {
    file: 'src/kill-tree.ts',
    line: 42,
    column: 45,
    mutator: 'StringLiteral',
    replacement: '"Stryker was here!"',
    why: 'identities are compared only with each other: any one text for an unknown start time gives the same answers',
  },
  // if (signal === 'SIGKILL') this.killed.add(identity(entry));
  {
    file: 'src/kill-tree.ts',
    line: 80,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'a member SIGTERMed in the grace and still there is in the first SIGKILL round, which adds its identity anyway before round 1 looks',
  },
  // if (round > 0 && members.every((entry) => this.killed.has(identity(entry)))) return;
  {
    file: 'src/kill-tree.ts',
    line: 116,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '116:20',
    why: ROUND_ZERO,
  },
  {
    file: 'src/kill-tree.ts',
    line: 116,
    column: 11,
    mutator: 'EqualityOperator',
    replacement: 'round >= 0',
    why: ROUND_ZERO,
  },
  // if (members.length === 0 && groups.length === 0) return run.report([]);
  {
    file: 'src/kill-tree.ts',
    line: 186,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: NO_LIVE_MEMBER,
  },
  {
    file: 'src/kill-tree.ts',
    line: 186,
    column: 31,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: NO_LIVE_MEMBER,
  },
  {
    file: 'src/kill-tree.ts',
    line: 186,
    column: 31,
    mutator: 'EqualityOperator',
    replacement: 'groups.length !== 0',
    why: NO_LIVE_MEMBER,
  },
  // if (close < 0) return undefined;
  {
    file: 'src/procfs.ts',
    line: 20,
    column: 7,
    mutator: 'EqualityOperator',
    replacement: 'close <= 0',
    why: 'a stat line starts with the pid, so its last ")" is never its first character',
  },
  // return environ.subarray(start, end < 0 ? environ.length : end).toString('utf8');
  {
    file: 'src/procfs.ts',
    line: 42,
    column: 34,
    mutator: 'EqualityOperator',
    replacement: 'end <= 0',
    why: 'the NUL is searched from after the name and its "=", never at 0',
  },
  // const BASIC_LINE = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)/;
  {
    file: 'src/ps.ts',
    line: 29,
    column: 20,
    mutator: 'Regex',
    replacement: '/^\\s*(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\S)/',
    why: STATE_LETTER,
  },
  // const ENV_LINE = /^\s*(\d+)...\s?(.*)$/;
  {
    file: 'src/ps.ts',
    line: 32,
    column: 3,
    mutator: 'Regex',
    replacement:
      '/^\\s*(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)\\s+([A-Z][a-z]{2}\\s+[A-Z][a-z]{2}\\s+\\d{1,2}\\s+\\d{2}:\\d{2}:\\d{2}\\s+\\d{4})\\s?(.*)/',
    why: '(.*) is greedy: it reads to the end of the line with or without the $ anchor',
  },
  // const ms = Date.parse(lstart.replace(/\s+/g, ' '));
  {
    file: 'src/ps.ts',
    line: 37,
    column: 40,
    mutator: 'Regex',
    replacement: '/\\s/g',
    why: 'Date.parse reads a run of spaces as one: "Tue Dec  1 11:53:35 2026" and "Tue Dec 1 11:53:35 2026" parse to the same time',
  },
  // if (selfMarker !== undefined) markers.delete(selfMarker);
  {
    file: 'src/tree.ts',
    line: 66,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'deleting undefined from a set of marker strings changes nothing',
  },
  // const queue: ProcessEntry[] = [];
  {
    file: 'src/tree.ts',
    line: 88,
    column: 33,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: 'the extra item is a string with no pid: no process has undefined as its parent, so the walk finds the same tree',
  },
  // if (context.markers.size > 0) {
  {
    file: 'src/tree.ts',
    line: 101,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'a fast path: with no marker the loop adds nothing (no marker is in an empty set)',
  },
  {
    file: 'src/tree.ts',
    line: 101,
    column: 7,
    mutator: 'EqualityOperator',
    replacement: 'context.markers.size >= 0',
    why: 'a fast path: with no marker the loop adds nothing (no marker is in an empty set)',
  },
  // if (entry.marker !== undefined && context.markers.has(entry.marker)) add(entry);
  {
    file: 'src/tree.ts',
    line: 103,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '103:37',
    why: 'the set holds marker strings, never undefined, so has() answers false for an entry without one either way',
  },
  // if (pgid <= 1 || pgid === context.selfPgid || context.selfPgid === undefined) return false;
  {
    file: 'src/tree.ts',
    line: 108,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '108:18',
    why: LOW_GROUP,
  },
  {
    file: 'src/tree.ts',
    line: 108,
    column: 9,
    mutator: 'EqualityOperator',
    replacement: 'pgid < 1',
    why: LOW_GROUP,
  },
  // return pgid === context.rootPid && !byPid.has(pgid);
  {
    file: 'src/tree.ts',
    line: 112,
    column: 12,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '112:36',
    why: 'only the root pid gets here: every other pgid tried is a member pid, which all.has() answered on the line above',
  },
];

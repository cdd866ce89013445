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
        'test/systemd-scope-watchdog.test.ts',
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
    line: 50,
    column: 24,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: "a failed kill's stand-in report: only its survivors are read",
  },
  // The contain part (cgroup layout and plan, pid namespace).
  // const match = /^(\d+):([^:]*):(.*)$/.exec(line);
  {
    file: 'src/cgroup/layout.ts',
    line: 33,
    column: 19,
    mutator: 'Regex',
    replacement: '/^(\\d+):([^:]*):(.*)/',
    why: '(.*) runs to the end of every line the kernel writes in /proc/self/cgroup (there is no \\r in it)',
  },
  // if (left === undefined || right === undefined) continue;
  {
    file: 'src/cgroup/layout.ts',
    line: 45,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '45:27',
    why: 'split() always gives a first element',
  },
  // const root = unescapeMountField(fields[3] ?? '');
  {
    file: 'src/cgroup/layout.ts',
    line: 49,
    column: 50,
    mutator: 'StringLiteral',
    replacement: '"Stryker was here!"',
    why: 'a line without a root (field 4) has no mount point (field 5) either, and is skipped for that',
  },
  // if (wanted.length === 0) continue;
  {
    file: 'src/cgroup/layout.ts',
    line: 83,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'a line with none of the wanted controllers sets nothing: the loop over them is empty',
  },
  // const sameHierarchy = mounts.filter((m) => m.version === 1 && sameSet(m.controllers, line.controllers));
  {
    file: 'src/cgroup/layout.ts',
    line: 84,
    column: 48,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '84:63',
    why: 'a v2 mount has no controllers and a line that gets here has one at least, so sameSet already leaves v2 out',
  },
  // if (dir !== undefined) for (const controller of wanted) layout.v1[controller] = dir;
  {
    file: 'src/cgroup/layout.ts',
    line: 86,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'a controller set to undefined reads as none wherever the layout is read (each reader tests for undefined or filters it out)',
  },
  // const root = mount.root === '/' ? '' : mount.root.replace(/\/$/, '');
  {
    file: 'src/cgroup/layout.ts',
    line: 100,
    column: 16,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: "'/' less its trailing slash is '' as well",
  },
  {
    file: 'src/cgroup/layout.ts',
    line: 100,
    column: 31,
    mutator: 'StringLiteral',
    replacement: '""',
    why: "'/' less its trailing slash is '' as well",
  },
  // dirs: [],
  {
    file: 'src/cgroup/plan.ts',
    line: 60,
    column: 11,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: 'replaced by the list of every directory before the plan is returned',
  },
  // procsFiles: [],
  {
    file: 'src/cgroup/plan.ts',
    line: 62,
    column: 17,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: 'replaced by the list of every directory before the plan is returned',
  },
  // const program = adapter.pid === undefined ? undefined : namespacedProgramPid(adapter.pid, fx.read);
  {
    file: 'src/pid-namespace/aim-signals.ts',
    line: 30,
    column: 21,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'without a pid the lookup reads /proc/undefined/…, which holds nothing: no program either way',
  },
  // const children = read(`/proc/${hostPid}/task/${hostPid}/children`)?.trim().split(/\s+/) ?? [];
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 17,
    column: 84,
    mutator: 'Regex',
    replacement: '/\\s/',
    why: "the kernel's children file holds decimal pids, one space apart",
  },
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 17,
    column: 94,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: 'an entry that is not a pid is skipped by the digit test',
  },
  // const inHost: number[] = [];
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 18,
    column: 28,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: 'a stand-in that is no pid: /proc holds no children file for it, so nothing is found under it',
  },
  // if (!/^\d+$/.test(child)) continue;
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 20,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: "the kernel's children file holds decimal pids, one space apart (and an entry that is not one has no /proc status, so is skipped there)",
  },
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 20,
    column: 10,
    mutator: 'Regex',
    replacement: '/\\d+$/',
    why: "the kernel's children file holds decimal pids, one space apart",
  },
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 20,
    column: 10,
    mutator: 'Regex',
    replacement: '/^\\d+/',
    why: "the kernel's children file holds decimal pids, one space apart",
  },
  // const nspid = /^NSpid:\s+(.+)$/m.exec(read(`/proc/${child}/status`) ?? '')?.[1]?.trim().split(/\s+/);
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 21,
    column: 19,
    mutator: 'MethodExpression',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a mutant, not a template
    replacement: "/^NSpid:\\s+(.+)$/m.exec(read(`/proc/${child}/status`) ?? '')?.[1]",
    why: "the kernel writes NSpid: at a line's start, then a tab and the pids, tab-separated, to the line's end",
  },
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 21,
    column: 19,
    mutator: 'OptionalChaining',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a mutant, not a template
    replacement: "/^NSpid:\\s+(.+)$/m.exec(read(`/proc/${child}/status`) ?? '')?.[1].trim",
    why: 'the group of a match is always a string',
  },
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 21,
    column: 19,
    mutator: 'Regex',
    replacement: '/NSpid:\\s+(.+)$/m',
    why: "the kernel writes NSpid: at a line's start, then a tab and the pids, tab-separated, to the line's end",
  },
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 21,
    column: 19,
    mutator: 'Regex',
    replacement: '/^NSpid:\\s+(.+)/m',
    why: "the kernel writes NSpid: at a line's start, then a tab and the pids, tab-separated, to the line's end",
  },
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 21,
    column: 19,
    mutator: 'Regex',
    replacement: '/^NSpid:\\s(.+)$/m',
    why: "the kernel writes NSpid: at a line's start, then a tab and the pids, tab-separated, to the line's end",
  },
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 22,
    column: 46,
    mutator: 'StringLiteral',
    replacement: '"Stryker was here!"',
    why: 'a status that cannot be read and one without an NSpid line are both skipped',
  },
  {
    file: 'src/pid-namespace/program-pid.ts',
    line: 24,
    column: 14,
    mutator: 'Regex',
    replacement: '/\\s/',
    why: "the kernel writes NSpid: at a line's start, then a tab and the pids, tab-separated, to the line's end",
  },
];

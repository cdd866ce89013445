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
  // The input-wait part.
  // if (facts.rootPid === undefined) return heuristic(facts);
  {
    file: 'src/input-wait/detector.ts',
    line: 38,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'without a pid the kernel is asked about /proc/undefined, which does not exist: null, so the heuristic either way',
  },
  // if (pid === undefined || platform !== 'linux') return undefined;
  {
    file: 'src/input-wait/foreground-program.ts',
    line: 24,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '24:24',
    why: 'without a pid /proc/undefined/stat is read, which does not exist: undefined either way',
  },
  // if (group === undefined || !Number.isInteger(group) || group <= 0) return undefined;
  {
    file: 'src/input-wait/foreground-program.ts',
    line: 27,
    column: 7,
    mutator: 'LogicalOperator',
    replacement: 'group === undefined && !Number.isInteger(group)',
    why: 'Number.isInteger(undefined) is false: an undefined group is refused by the next test either way',
  },
  {
    file: 'src/input-wait/foreground-program.ts',
    line: 27,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '27:26',
    why: 'Number.isInteger(undefined) is false: an undefined group is refused by the next test either way',
  },
  // const children = read(`/proc/${program}/task/${program}/children`)?.trim().split(/\s+/).map(Number) ?? [];
  {
    file: 'src/input-wait/foreground-program.ts',
    line: 32,
    column: 86,
    mutator: 'Regex',
    replacement: '/\\s/',
    why: "the kernel's children file holds decimal pids one space apart",
  },
  {
    file: 'src/input-wait/foreground-program.ts',
    line: 32,
    column: 108,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: 'a stand-in that is no pid: Number() of it is NaN, which the integer test passes over',
  },
  // } catch {
  {
    file: 'src/input-wait/foreground-program.ts',
    line: 56,
    column: 11,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: "an empty catch falls through to the function's end, which returns undefined as well",
  },
  // const cr = line.replace(/\r+$/, '').lastIndexOf('\r');
  {
    file: 'src/input-wait/heuristic.ts',
    line: 29,
    column: 35,
    mutator: 'StringLiteral',
    replacement: '"Stryker was here!"',
    why: 'only the index of the last carriage return before the trailing ones is used, and the stand-in text holds none',
  },
  // if (cr >= 0) line = line.slice(cr + 1);
  {
    file: 'src/input-wait/heuristic.ts',
    line: 30,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'with no carriage return, slice(-1 + 1) is the whole line',
  },
  {
    file: 'src/input-wait/heuristic.ts',
    line: 30,
    column: 7,
    mutator: 'EqualityOperator',
    replacement: 'cr > 0',
    why: "a carriage return at 0 is left at the line's start, and trim() removes it",
  },
  // return line.length <= MAX_PROMPT_CHARS ? line : line.slice(line.length - MAX_PROMPT_CHARS);
  {
    file: 'src/input-wait/heuristic.ts',
    line: 32,
    column: 10,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'a line of at most 200 characters sliced from length - 200 (0 or below) is the whole line',
  },
  {
    file: 'src/input-wait/heuristic.ts',
    line: 32,
    column: 10,
    mutator: 'EqualityOperator',
    replacement: 'line.length < MAX_PROMPT_CHARS',
    why: 'a line of exactly 200 characters sliced from 0 is the whole line',
  },
  // this.#writes++;
  {
    file: 'src/input-wait/input-watch.ts',
    line: 58,
    column: 5,
    mutator: 'UpdateOperator',
    replacement: 'this.#writes--',
    why: 'only equality of the writes count with the checked count is read; counting down keeps it as well as counting up',
  },
  // if (this.#stopped) return;
  {
    file: 'src/input-wait/input-watch.ts',
    line: 151,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'after stop() a scheduled check returns at once (#probe tests #stopped) and schedules no other (#wanted() is false)',
  },
  // this.#timer.unref?.();
  {
    file: 'src/input-wait/input-watch.ts',
    line: 159,
    column: 5,
    mutator: 'OptionalChaining',
    replacement: 'this.#timer.unref()',
    why: "Node's timers (and vitest's fake ones) always have unref()",
  },
  // const quietFor = Date.now() - this.#lastOutputAt;
  {
    file: 'src/input-wait/input-watch.ts',
    line: 164,
    column: 22,
    mutator: 'ArithmeticOperator',
    replacement: 'Date.now() + this.#lastOutputAt',
    why: 'the quiet time is never negative, so QUIET_BEFORE_CHECK_MS - quietFor is below CHECK_EVERY_MS and the delay is CHECK_EVERY_MS either way',
  },
  // if (this.#timer) clearTimeout(this.#timer);
  {
    file: 'src/input-wait/input-watch.ts',
    line: 169,
    column: 9,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'clearTimeout(undefined) does nothing',
  },
  // if (!pts || root.tpgid <= 0) return { waiting: false };
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 75,
    column: 17,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: "a tpgid of 0 or -1 is no process's group: no candidates, so not waiting either way",
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 75,
    column: 17,
    mutator: 'EqualityOperator',
    replacement: 'root.tpgid < 0',
    why: "a tpgid of 0 is no process's group: no candidates, so not waiting either way",
  },
  // const pipe = stdin !== undefined && /^(pipe|socket):\[\d+\]$/.test(stdin) ? stdin : undefined;
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 85,
    column: 18,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '85:37',
    why: "a regex tests undefined as the text 'undefined', which is no pipe: undefined either way",
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 85,
    column: 41,
    mutator: 'Regex',
    replacement: '/^(pipe|socket):\\[\\d+\\]/',
    why: 'readlink of a descriptor gives pipe:[inode], socket:[inode] or an absolute path, never more after the bracket',
  },
  // terminal = stdin !== undefined && /^\/dev\/pts\/\d+$/.test(stdin) ? stdin : ptsPath(root.ttyNr);
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 86,
    column: 16,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    end: '86:35',
    why: "a regex tests undefined as the text 'undefined', which is no pts path",
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 86,
    column: 39,
    mutator: 'Regex',
    replacement: '/^\\/dev\\/pts\\/\\d+/',
    why: 'readlink of a descriptor on a pts gives /dev/pts/<n>, nothing after the number',
  },
  // const seen = new Set([root.pid]);
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 131,
    column: 24,
    mutator: 'ArrayDeclaration',
    replacement: '[]',
    why: 'no process lists the first process as its child: marking it seen changes nothing',
  },
  // const children = (await fx.readFile(`/proc/${pid}/task/${pid}/children`)) ?? '';
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 134,
    column: 82,
    mutator: 'StringLiteral',
    replacement: '"Stryker was here!"',
    why: 'an unreadable children file read as words that are no pids: each has no /proc stat and is skipped',
  },
  // for (const child of children.trim().split(/\s+/)) {
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 135,
    column: 25,
    mutator: 'MethodExpression',
    replacement: 'children',
    why: "the children file ends in a space: the empty word it leaves is skipped by the child === '' test",
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 135,
    column: 47,
    mutator: 'Regex',
    replacement: '/\\s/',
    why: "the kernel's children file holds decimal pids one space apart",
  },
  // if (child === '' || seen.has(childPid)) continue;
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 137,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '137:45',
    why: 'an empty word is pid 0, which has no /proc stat; a pid listed twice is the same process judged twice, with the same verdict',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 137,
    column: 11,
    mutator: 'LogicalOperator',
    replacement: "child === '' && seen.has(childPid)",
    why: 'a pid listed twice is the same process judged twice, with the same verdict',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 137,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '137:23',
    why: 'an empty word is pid 0, which has no /proc stat; a pid listed twice is the same process judged twice, with the same verdict',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 137,
    column: 21,
    mutator: 'StringLiteral',
    replacement: '"Stryker was here!"',
    why: 'an empty word is pid 0, which has no /proc stat and is skipped',
  },
  // if (a1 === 0n || nfds <= 0) return [];
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 160,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '160:33',
    why: 'a null set read at address 0 is unmapped (undefined), a set of 0 descriptors is 0 bytes with no members: no descriptors either way',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 160,
    column: 11,
    mutator: 'LogicalOperator',
    replacement: 'a1 === 0n && nfds <= 0',
    why: 'a null set read at address 0 is unmapped (undefined), a set of 0 descriptors is 0 bytes with no members: no descriptors either way',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 160,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '160:20',
    why: 'a null set read at address 0 is unmapped (undefined), a set of 0 descriptors is 0 bytes with no members: no descriptors either way',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 160,
    column: 24,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'a set of 0 descriptors is 0 bytes with no members',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 160,
    column: 24,
    mutator: 'EqualityOperator',
    replacement: 'nfds < 0',
    why: 'a set of 0 descriptors is 0 bytes with no members',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 160,
    column: 42,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: 'a stand-in that is no descriptor: its link cannot be read, so it is no input, as no descriptor at all',
  },
  // return bits ? fdSetMembers(bits, nfds) : [];
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 162,
    column: 48,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: 'a stand-in that is no descriptor: its link cannot be read, so it is no input, as no descriptor at all',
  },
  // if (a0 === 0n || count <= 0) return [];
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 167,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '167:34',
    why: 'a null array read at address 0 is unmapped (undefined), an array of 0 entries is 0 bytes with none: no descriptors either way',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 167,
    column: 11,
    mutator: 'LogicalOperator',
    replacement: 'a0 === 0n && count <= 0',
    why: 'a null array read at address 0 is unmapped (undefined), an array of 0 entries is 0 bytes with none: no descriptors either way',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 167,
    column: 11,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '167:20',
    why: 'a null array read at address 0 is unmapped (undefined), an array of 0 entries is 0 bytes with none: no descriptors either way',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 167,
    column: 24,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    why: 'an array of 0 entries is 0 bytes with none',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 167,
    column: 24,
    mutator: 'EqualityOperator',
    replacement: 'count < 0',
    why: 'an array of 0 entries is 0 bytes with none',
  },
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 167,
    column: 43,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: 'a stand-in that is no descriptor: its link cannot be read, so it is no input, as no descriptor at all',
  },
  // return bytes ? pollReaders(bytes, count) : [];
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 169,
    column: 50,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: 'a stand-in that is no descriptor: its link cannot be read, so it is no input, as no descriptor at all',
  },
  // return info ? epollTargets(info) : [];
  {
    file: 'src/input-wait/kernel-detect.ts',
    line: 173,
    column: 42,
    mutator: 'ArrayDeclaration',
    replacement: '["Stryker was here"]',
    why: 'a stand-in that is no descriptor: its link cannot be read, so it is no input, as no descriptor at all',
  },
  // } catch {
  {
    file: 'src/input-wait/node-effects.ts',
    line: 22,
    column: 13,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: "an empty catch falls through to the finally and the function's end, which returns undefined as well",
  },
  // execFile('stty', ['-F', path, '-a'], { timeout: 2_000 }, (error, stdout) => {
  {
    file: 'src/input-wait/node-effects.ts',
    line: 30,
    column: 44,
    mutator: 'ObjectLiteral',
    replacement: '{}',
    why: 'stty on a terminal answers at once; the timeout only bounds an stty that hangs',
  },
  // const verdict = await kernelWaiting({ rootPid: pid, kind: 'pipe', arch: process.arch }, linuxProcEffects);
  {
    file: 'src/input-wait/polls-stdin.ts',
    line: 14,
    column: 61,
    mutator: 'StringLiteral',
    replacement: '""',
    why: "any kind but 'pty' is read as pipes",
  },
  // if (open < 0 || close < open) return undefined;
  {
    file: 'src/input-wait/procfs.ts',
    line: 23,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '23:15',
    why: "without '(' the pid is read from all but the last character, which holds spaces once there are six fields: NaN, refused",
  },
  {
    file: 'src/input-wait/procfs.ts',
    line: 23,
    column: 7,
    mutator: 'EqualityOperator',
    replacement: 'open <= 0',
    why: "/proc/<pid>/stat starts with the pid, so '(' is never at 0",
  },
  {
    file: 'src/input-wait/procfs.ts',
    line: 23,
    column: 19,
    mutator: 'EqualityOperator',
    replacement: 'close <= open',
    why: "')' and '(' at the same index only when both are missing (-1), which open < 0 refuses first",
  },
  // const pid = Number(text.slice(0, open).trim());
  {
    file: 'src/input-wait/procfs.ts',
    line: 24,
    column: 22,
    mutator: 'MethodExpression',
    replacement: 'text.slice(0, open)',
    why: 'Number() ignores surrounding blanks',
  },
  // .split(/\s+/);
  {
    file: 'src/input-wait/procfs.ts',
    line: 28,
    column: 12,
    mutator: 'Regex',
    replacement: '/\\s/',
    why: 'the kernel separates stat fields by one space',
  },
  // const parts = text.trim().split(/\s+/);
  {
    file: 'src/input-wait/procfs.ts',
    line: 51,
    column: 17,
    mutator: 'MethodExpression',
    replacement: 'text',
    why: "the kernel's syscall line starts with the number, and its trailing newline lies past the six arguments read",
  },
  {
    file: 'src/input-wait/procfs.ts',
    line: 51,
    column: 35,
    mutator: 'Regex',
    replacement: '/\\s/',
    why: 'the kernel separates the syscall fields by one space',
  },
  // if (parts[0] === 'running' || !Number.isInteger(nr) || nr < 0) return undefined;
  {
    file: 'src/input-wait/procfs.ts',
    line: 53,
    column: 7,
    mutator: 'ConditionalExpression',
    replacement: 'false',
    end: '53:29',
    why: "Number('running') is NaN, which the integer test refuses",
  },
  {
    file: 'src/input-wait/procfs.ts',
    line: 53,
    column: 20,
    mutator: 'StringLiteral',
    replacement: '""',
    why: "Number('running') is NaN, which the integer test refuses",
  },
  // } catch {
  {
    file: 'src/input-wait/procfs.ts',
    line: 56,
    column: 11,
    mutator: 'BlockStatement',
    replacement: '{}',
    why: "an empty catch falls through to the function's end, which returns undefined as well",
  },
  // for (const match of fdinfo.matchAll(/^tfd:\s+(\d+)/gm)) fds.push(Number(match[1]));
  {
    file: 'src/input-wait/procfs.ts',
    line: 75,
    column: 39,
    mutator: 'Regex',
    replacement: '/tfd:\\s+(\\d+)/gm',
    why: "only the tfd lines of an epoll fdinfo hold 'tfd:'",
  },
  // for (let fd = 0; fd < nfds && fd >> 3 < bits.length; fd++) {
  {
    file: 'src/input-wait/procfs.ts',
    line: 82,
    column: 33,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: "a byte past the set's end is undefined, and undefined >> n & 1 is 0: no member either way",
  },
  {
    file: 'src/input-wait/procfs.ts',
    line: 82,
    column: 33,
    mutator: 'EqualityOperator',
    replacement: 'fd >> 3 <= bits.length',
    why: "a byte past the set's end is undefined, and undefined >> n & 1 is 0: no member either way",
  },
  // const match = new RegExp(`(^|[\\s;])(-?)${name}(?=[\\s;]|$)`, 'm').exec(text);
  {
    file: 'src/input-wait/procfs.ts',
    line: 114,
    column: 65,
    mutator: 'StringLiteral',
    replacement: '""',
    why: "stty -a puts a newline before a flag at a line's start, which [\\s;] matches without the m flag",
  },
  // process.platform === 'linux' ? linuxProcEffects : undefined,
  {
    file: 'src/input-wait/session-input.ts',
    line: 12,
    column: 5,
    mutator: 'ConditionalExpression',
    replacement: 'true',
    why: 'off Linux createInputDetector ignores the effects it is given',
  },
];

// Which test files run on which OS, and why the others do not: the one table the vitest
// configs (vitest.shared.ts) and the per-OS count (scripts/test-matrix.mjs) read. A file not
// listed runs everywhere. Reasons are printed whenever a file is left out.

const POSIX_SHELL =
  'scripts POSIX shell command lines (bash -c, sh, sleep, printf, trap, setsid) and POSIX signals';

/** @type {Record<string, Array<{ on: 'posix' | 'linux' | 'win32', files: string[], reason: string }>>} */
export const PLATFORM_RULES = {
  'packages/supervisor': [
    {
      on: 'posix',
      files: [
        'test/child-adapter.test.ts',
        'test/supervisor-abort.test.ts',
        'test/supervisor-pipe.test.ts',
        'test/supervisor-pty.test.ts',
      ],
      reason: `${POSIX_SHELL}; supervisor-pty also drives @procmux/pty-posix directly`,
    },
    {
      on: 'win32',
      files: ['test/windows-shells.test.ts'],
      reason: 'cmd, PowerShell, ConPTY, Ctrl-C on a console and taskkill exist only on Windows',
    },
  ],
  'packages/sessions': [
    {
      on: 'posix',
      files: [
        'test/backends.test.ts',
        'test/durable.test.ts',
        'test/handle.test.ts',
        'test/python-repl.test.ts',
        'test/start.test.ts',
      ],
      reason: POSIX_SHELL,
    },
    {
      on: 'linux',
      files: ['test/input-wait/proc-real.test.ts'],
      reason: 'reads /proc (the blocked call, descriptors, memory) of real processes on real terminals',
    },
  ],
  'packages/tools': [
    {
      on: 'posix',
      files: [
        'test/exec.test.ts',
        'test/non-interactive.test.ts',
        'test/process.test.ts',
        'test/wait-for.test.ts',
      ],
      reason: POSIX_SHELL,
    },
  ],
  'packages/mcp': [
    {
      on: 'posix',
      files: [
        'test/cli.test.ts',
        'test/demo.test.ts',
        'test/e2e.test.ts',
        'test/main.test.ts',
        'test/serve.test.ts',
        'test/server.test.ts',
        'test/persist.test.ts',
      ],
      reason: `${POSIX_SHELL}; the demo drives python3 -i; persist drives tmux`,
    },
  ],
  'test-e2e': [
    {
      on: 'posix',
      files: [
        'mission/five-bugs.e2e.test.ts',
        'full-screen/vim-less.e2e.test.ts',
        'input-wait/mcp-long-wait.e2e.test.ts',
        'mission/honest-output.e2e.test.ts',
        'mcp/stress.e2e.test.ts',
        'mcp/fuzz.e2e.test.ts',
        'containment/mcp-limits.e2e.test.ts',
        'mcp/ended-sessions.e2e.test.ts',
      ],
      reason: `${POSIX_SHELL} (sleep 40; echo ready, seq, bash -i, yes | head); vim and less are POSIX programs`,
    },
  ],
  'packages/pty-posix': [
    {
      on: 'linux',
      files: ['test/tail-loss.test.ts'],
      reason:
        'its bar is raw node-pty losing the tail of seq at exit, which was measured on Linux only (notes/pty-tail-loss.md)',
    },
  ],
  'packages/kill-posix': [
    { on: 'linux', files: ['test/procfs.test.ts'], reason: 'reads the real /proc, which only Linux has' },
  ],
  'packages/backend-tmux': [
    {
      on: 'posix',
      files: ['test/recover.test.ts', 'test/tail.test.ts', 'test/backend.test.ts'],
      reason:
        'tmux is a POSIX program; on Windows the package throws ERR_PROCESS_UNSUPPORTED (test/unit.test.ts)',
    },
  ],
};

/**
 * The packages whose unit tests each leg of .github/workflows/ci.yml runs (test-e2e runs on every
 * leg). The workflow's --filter lists must say the same (test-e2e/imports/ci-legs checks it).
 */
export const CI_LEGS = {
  linux: { unitExcept: [] },
  darwin: { unitExcept: ['store-postgres'], why: 'no PostgreSQL server on the macOS runner' },
  win32: {
    unitOnly: [
      'core-types',
      'shell-wrap',
      'key-encoder',
      'ansi',
      'screen',
      'registry',
      'transcript',
      'kill-windows',
      'pty-windows-conpty',
      'pty-core',
      'supervisor',
      'sessions',
      'tools',
      'mcp',
    ],
    why: 'the other packages are POSIX-only (pty-posix, kill-posix, backend-tmux, backend-ssh) or need a server',
  },
};

/** Whether the `os` leg of the workflow runs the tests of `dir` (relative to the repo root). */
export function legRuns(dir, os) {
  if (dir === 'test-e2e') return true;
  const leg = CI_LEGS[os];
  if (!leg || !dir.startsWith('packages/')) return false;
  const name = dir.slice('packages/'.length);
  return leg.unitOnly ? leg.unitOnly.includes(name) : !leg.unitExcept.includes(name);
}

/** Whether a rule's files run on `platform`. */
export function ruleRunsOn(rule, platform) {
  if (rule.on === 'posix') return platform !== 'win32';
  return rule.on === platform;
}

/** The files of package `dir` (relative to the repo root) left out on `platform`, with why. */
export function excludedOn(dir, platform) {
  // 'any': every file (test-matrix.mjs lists them all once, then filters per OS).
  if (platform === 'any') return [];
  return (PLATFORM_RULES[dir] ?? [])
    .filter((rule) => !ruleRunsOn(rule, platform))
    .flatMap((rule) => rule.files.map((file) => ({ file, reason: `${rule.on} only: ${rule.reason}` })));
}

/** The platform the filter applies: PROCMUX_TEST_PLATFORM (to count another OS's run), else this one. */
export function testPlatform() {
  return process.env.PROCMUX_TEST_PLATFORM || process.platform;
}

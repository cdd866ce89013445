// One way for a test file to say what it needs from the machine: skipped, with the reason, where
// the leg cannot have it; a failure under CI where the leg should have it (so a missing package in
// CI never turns into a quiet skip).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SSHD_PATH } from './sshd.js';

export type Tool =
  | 'posix-shell'
  | 'ps'
  | 'python3'
  | 'tmux'
  | 'sshd'
  | 'chromium'
  | 'postgres'
  | 'gdb'
  | 'ss';

export const PS_PATH = '/bin/ps';

/** The chromium the browser tests drive: PROCMUX_CHROMIUM, else Debian's. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.PROCMUX_CHROMIUM ?? '/usr/bin/chromium';
}

interface ToolRule {
  /** The operating systems whose CI leg has the tool (installs it, or it comes with the OS). */
  ciLegs: readonly NodeJS.Platform[];
  /** Where the tests that need it can run at all, when it is there (default: Linux and macOS). */
  platforms?: readonly NodeJS.Platform[];
  /** Why a machine without it cannot run the tests, and how to get it. */
  missing: (env: NodeJS.ProcessEnv) => string;
  present: (effects: ToolEffects, env: NodeJS.ProcessEnv) => boolean;
}

/** What requireTool looks at, injected so its decisions are tested for every OS here. */
export interface ToolEffects {
  exists(path: string): boolean;
  /** Whether `command args` runs and exits 0. */
  runs(command: string, args: readonly string[]): boolean;
}

export const nodeToolEffects: ToolEffects = {
  exists: existsSync,
  runs: (command, args) => spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 }).status === 0,
};

const POSIX: readonly NodeJS.Platform[] = ['linux', 'darwin'];

// The legs are those of .github/workflows/ci.yml (and .ci/run, a Linux leg); the README's table
// of what never ran where is written from the same facts.
export const TOOLS: Record<Tool, ToolRule> = {
  'posix-shell': {
    ciLegs: POSIX,
    missing: () => 'needs a POSIX shell (sh) and POSIX signals, which Windows does not have',
    present: (fx) => fx.runs('sh', ['-c', 'exit 0']),
  },
  ps: {
    ciLegs: POSIX,
    missing: () => `needs ${PS_PATH} (Debian: apt-get install -y procps)`,
    present: (fx) => fx.exists(PS_PATH),
  },
  python3: {
    ciLegs: POSIX,
    missing: () => 'needs python3 on PATH (Debian: apt-get install -y python3)',
    present: (fx) => fx.runs('python3', ['--version']),
  },
  tmux: {
    ciLegs: POSIX,
    missing: () => 'needs tmux (Debian: apt-get install -y tmux; macOS: brew install tmux)',
    present: (fx) => fx.runs('tmux', ['-V']),
  },
  sshd: {
    ciLegs: ['linux'],
    // The test server (test-utils sshd.ts) is set up for Debian's OpenSSH; never tried elsewhere.
    platforms: ['linux'],
    missing: () => `needs ${SSHD_PATH} (Debian: apt-get install -y openssh-server)`,
    present: (fx) => fx.exists(SSHD_PATH),
  },
  chromium: {
    ciLegs: ['linux'],
    missing: (env) =>
      `needs chromium at ${chromiumPath(env)} (Debian: apt-get install -y chromium; or set PROCMUX_CHROMIUM)`,
    present: (fx, env) => fx.exists(chromiumPath(env)),
  },
  gdb: {
    // A REPL whose prompt waits in poll beside pipes of its own (the input-wait tests).
    ciLegs: ['linux'],
    platforms: ['linux'],
    missing: () => 'needs gdb (Debian: apt-get install -y gdb)',
    present: (fx) => fx.runs('gdb', ['--version']),
  },
  ss: {
    // iproute2's socket statistics: which Unix socket a socket pair's end is connected to (the
    // input-wait tests of an asyncio prompt, IPython's).
    ciLegs: ['linux'],
    platforms: ['linux'],
    missing: () => 'needs ss (Debian: apt-get install -y iproute2)',
    present: (fx) => fx.runs('ss', ['-V']),
  },
  postgres: {
    ciLegs: ['linux'],
    missing: () =>
      'needs a PostgreSQL server in PROCMUX_PG_URL (eval "$(tooling/scripts/postgres.sh start)")',
    present: (_fx, env) => Boolean(env.PROCMUX_PG_URL),
  },
};

/** CI as CI services set it: any value but empty, "0" or "false". */
export function underCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

export interface RequireToolOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  effects?: ToolEffects;
  /** Where the reason to skip is printed; by default the console. */
  report?: (line: string) => void;
}

/**
 * For a test file: undefined when every tool is here; else the reason to skip (printed), for
 * `describe.skipIf(reason)`. Under CI, on a leg that should have a tool (ci.yml installs it or
 * the OS brings it), a missing one throws instead, failing the file.
 *
 * @example
 * const skip = requireTool('sshd');
 * describe.skipIf(skip !== undefined)(`against a real sshd${skip ? ` (${skip})` : ''}`, () => {});
 */
export function requireTool(
  tools: Tool | readonly Tool[],
  options: RequireToolOptions = {},
): string | undefined {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const effects = options.effects ?? nodeToolEffects;
  const reasons: string[] = [];
  for (const tool of typeof tools === 'string' ? [tools] : tools) {
    const rule = TOOLS[tool];
    const legHasIt = rule.ciLegs.includes(platform);
    // Not looked for where the tests cannot run (Git Bash's sh on Windows is not the POSIX meant).
    if (!(rule.platforms ?? POSIX).includes(platform)) {
      reasons.push(`${tool}: not on ${platform}: ${rule.missing(env)}`);
      continue;
    }
    if (rule.present(effects, env)) continue;
    const why = `${tool}: ${rule.missing(env)}`;
    if (legHasIt && underCi(env)) {
      throw new Error(`CI on ${platform} must have ${tool}, and it is missing: ${why}`);
    }
    reasons.push(legHasIt ? why : `${why} (the ${platform} leg does not have it)`);
  }
  if (reasons.length === 0) return undefined;
  const reason = `skipped: ${reasons.join('; ')}`;
  (options.report ?? ((line) => console.info(`[procmux] ${line}`)))(reason);
  return reason;
}

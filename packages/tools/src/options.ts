import { invalidOption, knownKeys, type Limit, resolveLimit } from '@procmux/core-types';
import { NON_INTERACTIVE_ENV, PIPE_OUTPUT_ENV } from './environment.js';

/** How the tools behave; every field is optional. */
export interface ProcessToolsOptions {
  /** Most characters in one result's text: 30,000 (1,000 to 1,000,000). */
  outputBudget?: number;
  /** Overall timeout of a one-shot command unless the call sets one: 120,000 ms. */
  oneShotTimeoutMs?: number;
  /** Idle (no output) timeout of a one-shot command unless the call sets one: 60,000 ms. */
  oneShotNoOutputTimeoutMs?: number;
  /** How long exec session/daemon waits for its first output before returning: 2,000 ms (0 to 10,000). */
  startupWaitMs?: number;
  /** Variables set for one-shot commands (the call's `env` wins): NON_INTERACTIVE_ENV. */
  nonInteractiveEnv?: Readonly<Record<string, string>>;
  /** Variables set for one-shots and daemons, whose output goes to pipes (the call's `env` wins): PIPE_OUTPUT_ENV. */
  pipeOutputEnv?: Readonly<Record<string, string>>;
  /** Why exec `persist: true` cannot work on this host (no persistent backend); it is refused saying so. */
  persistUnavailable?: string;
  /**
   * Why `wait_for port` cannot check the sessions' ports from here (procmux mcp --ssh: they run on
   * another host, whose loopback this one does not see); it is refused saying so.
   */
  portsUnavailable?: string;
  /**
   * Whether a one_shot's reply names what of its tree still ran when its command ended (the
   * session's endLeftovers: its cgroup, else the tree-kill scan, named from /proc). Default:
   * true on Linux (/proc names them); a host whose sessions run elsewhere (over SSH) passes false.
   */
  reportBackgroundJobs?: boolean;
}

export interface ResolvedToolOptions {
  outputBudget: number;
  oneShotTimeoutMs: number;
  oneShotNoOutputTimeoutMs: number;
  startupWaitMs: number;
  nonInteractiveEnv: Readonly<Record<string, string>>;
  pipeOutputEnv: Readonly<Record<string, string>>;
  persistUnavailable: string | undefined;
  portsUnavailable: string | undefined;
  reportBackgroundJobs: boolean;
}

/** The longest a single poll or wait_for call waits. */
export const MAX_WAIT_MS = 120_000;

/** The longest timeout a call may set: a day. */
export const DAY_MS = 24 * 60 * 60 * 1000;
const LIMITS: Record<
  Exclude<
    keyof ProcessToolsOptions,
    'nonInteractiveEnv' | 'pipeOutputEnv' | 'persistUnavailable' | 'portsUnavailable' | 'reportBackgroundJobs'
  >,
  Limit & { min: number }
> = {
  outputBudget: { default: 30_000, hard: 1_000_000, min: 1_000 },
  oneShotTimeoutMs: { default: 120_000, hard: DAY_MS, min: 1 },
  oneShotNoOutputTimeoutMs: { default: 60_000, hard: DAY_MS, min: 1 },
  startupWaitMs: { default: 2_000, hard: 10_000, min: 0 },
};

/** Fills in defaults; a bad or unknown option is ERR_INVALID_OPTION saying what is allowed. */
export function resolveToolOptions(options: ProcessToolsOptions = {}): ResolvedToolOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw invalidOption('options', 'an object (the options of createProcessTools)', { value: options });
  }
  knownKeys('options', options, [
    ...Object.keys(LIMITS),
    'nonInteractiveEnv',
    'pipeOutputEnv',
    'persistUnavailable',
    'portsUnavailable',
    'reportBackgroundJobs',
  ]);
  const env = envOption('nonInteractiveEnv', options.nonInteractiveEnv ?? NON_INTERACTIVE_ENV);
  const pipeEnv = envOption('pipeOutputEnv', options.pipeOutputEnv ?? PIPE_OUTPUT_ENV);
  // Any string was taken before (even an empty one), so only the type is checked.
  for (const key of ['persistUnavailable', 'portsUnavailable'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string') {
      throw invalidOption(key, 'a string saying why', { value: options[key] });
    }
  }
  const report = options.reportBackgroundJobs ?? process.platform === 'linux';
  if (typeof report !== 'boolean') {
    throw invalidOption('reportBackgroundJobs', 'true or false', { value: report });
  }
  const resolved = {
    nonInteractiveEnv: env,
    pipeOutputEnv: pipeEnv,
    persistUnavailable: options.persistUnavailable,
    portsUnavailable: options.portsUnavailable,
    reportBackgroundJobs: report,
  } as ResolvedToolOptions;
  for (const [key, limit] of Object.entries(LIMITS) as [keyof typeof LIMITS, Limit & { min: number }][]) {
    resolved[key] = resolveLimit(key, options[key], limit, limit.min);
  }
  return resolved;
}

function envOption(name: string, env: unknown): Readonly<Record<string, string>> {
  if (typeof env !== 'object' || env === null || !Object.values(env).every((v) => typeof v === 'string')) {
    throw invalidOption(name, 'an object mapping variable names to string values', { value: env });
  }
  return env as Readonly<Record<string, string>>;
}

/** The options in force when a host sets none. */
export const DEFAULT_TOOL_OPTIONS: ResolvedToolOptions = resolveToolOptions();

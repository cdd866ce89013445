// createTmuxBackend's options, checked with the core-types toolkit: one error shape
// (ERR_INVALID_OPTION, "<option> must be <allowed> (got <value>)", details.option) as in
// every other package; nothing clamped, no unknown key ignored.
import {
  DEFAULT_KILL_GRACE_MS,
  integerOption,
  invalidOption,
  knownKeys,
  type Logger,
  loggerOption,
  MAX_KILL_GRACE_MS,
  nonEmptyString,
  oneOf,
  optionsObject,
} from '@procmux/core-types';
import { consoleLogger } from '@procmux/supervisor';
import type { TmuxContainmentMode } from './containment.js';
import type { TmuxBinary } from './tmux-cli.js';

export interface TmuxBackendOptions {
  /** Directory of the socket (`tmux.sock`) and session logs; created 0700 when missing. */
  dir: string;
  /** SIGTERM-to-SIGKILL grace of kill() and of the host-death kill: 0 to 60000 ms (default 3000). */
  killGraceMs?: number;
  /** A tmux already located (tests); found on PATH and version-checked by default. */
  tmux?: TmuxBinary;
  /**
   * 'auto' (default): a cgroup per pane where this host can make one, else a pid namespace,
   * else the marker sweep. 'cgroup': each pane's process joins a cgroup of its own beneath
   * this host's cgroup (Linux) before it runs the program; kill() ends every member, the
   * cgroup is removed when the pane ends. 'pid-namespace': each pane's program runs in a pid
   * namespace of its own (Linux), which dies with the pane's process. Both hold escapees
   * (a setsid daemon that cleared its environment), also for a pane that outlived its host;
   * a host that cannot make the one asked for fails the start with ERR_PROCESS_UNSUPPORTED
   * naming why. 'marker': a pane's tree is found by process group, descendants and marker.
   */
  containment?: TmuxContainmentMode;
  /**
   * Where what the backend could not clean up is told: a pane's cgroup it could not empty and
   * remove, the host watchdog's trouble. Default: the console (`consoleLogger`).
   */
  logger?: Logger;
}

export interface ResolvedTmuxOptions {
  dir: string;
  killGraceMs: number;
  tmux: TmuxBinary | undefined;
  containment: TmuxContainmentMode;
  logger: Logger;
}

const KEYS = ['dir', 'killGraceMs', 'tmux', 'containment', 'logger'] as const;

export function resolveTmuxOptions(value: unknown): ResolvedTmuxOptions {
  const options = optionsObject<TmuxBackendOptions>(value);
  knownKeys('options', options, KEYS);
  const dir = nonEmptyString('dir', options.dir, { required: true });
  const killGraceMs = integerOption('killGraceMs', options.killGraceMs, {
    min: 0,
    max: MAX_KILL_GRACE_MS,
    default: DEFAULT_KILL_GRACE_MS,
  });
  const containment =
    oneOf('containment', options.containment, ['auto', 'cgroup', 'pid-namespace', 'marker'] as const) ??
    'auto';
  return {
    dir,
    killGraceMs,
    tmux: tmuxOption(options.tmux),
    containment,
    logger: loggerOption(options.logger, consoleLogger),
  };
}

function tmuxOption(value: unknown): TmuxBinary | undefined {
  if (value === undefined) return undefined;
  const t = value as Partial<TmuxBinary> | null;
  if (
    typeof t === 'object' &&
    t !== null &&
    typeof t.path === 'string' &&
    t.path !== '' &&
    typeof t.version === 'string'
  ) {
    return { path: t.path, version: t.version };
  }
  throw invalidOption('tmux', 'a located tmux { path, version } (what locateTmux() returns)', { value });
}

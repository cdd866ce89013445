import {
  booleanOption,
  DEFAULT_MAX_CAPTURE_BYTES,
  envOption,
  functionOption,
  integerOption,
  invalidOption,
  nonEmptyString,
  OUTPUT_TOTAL_BYTES_LIMIT,
  type OutputListener,
  oneOf,
  type ProcessAdapter,
  type ScreenLike,
  type SpawnTarget,
  type StdinMode,
  type StdioMode,
  TERM_BYTES_LIMIT,
  TERMINAL_COLUMNS_LIMIT,
  TERMINAL_ROWS_LIMIT,
  type TerminationReason,
} from '@procmux/core-types';
import { SessionCgroup } from './cgroup/session-cgroup.js';
import type { PidNamespaceSpec } from './pid-namespace/wrap.js';
import { checkInput, checkTarget } from './validate.js';
import { isPrivateDir } from './watchdog/protocol.js';

/** Longest timer Node can schedule (about 24.8 days). */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** What ProcessSupervisor.spawn takes. Only the target is required. */
export interface SpawnOptions extends SpawnTarget {
  /** 'pipe' (default): plain pipes, stdout and stderr apart. 'pty': a pseudo-terminal. */
  mode?: StdioMode;
  /** When a PTY cannot be had: 'fail' (default) rejects; 'pipe' logs a warning and uses pipes. */
  ptyFallback?: 'pipe' | 'fail';
  cwd?: string;
  /** The child's full environment (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
  /** PTY size (the PTY package's defaults when omitted). */
  cols?: number;
  rows?: number;
  /** PTY TERM value. */
  term?: string;
  /** Default: 'open' when a PTY or an adapter factory was asked for, else 'closed'. */
  stdin?: StdinMode;
  /** Written to stdin first (then EOF when stdin is 'closed'). */
  input?: string | Uint8Array;
  /** Wall-clock limit; the tree is force-killed when it passes. Off when omitted. */
  timeoutMs?: number;
  /** Idle limit, restarted by every output chunk. Off when omitted. */
  noOutputTimeoutMs?: number;
  /** Each stdout chunk, with its UTF-8 bytes when the adapter has them (see OutputListener). */
  onStdout?: OutputListener;
  onStderr?: OutputListener;
  /** Aborting rejects a spawn in progress at once; after the spawn it cancels the run. */
  signal?: AbortSignal;
  /** Bytes of stdout and of stderr kept for RunExit, each (default 1 MiB; 0 keeps none). */
  maxCaptureBytes?: number;
  /** Fed the output; on a PTY it answers the program's terminal queries. */
  screen?: ScreenLike;
  /**
   * Starts the process instead of the built-in adapters (a host's PTY backend or sandbox).
   * `command`/`file` are then optional labels for logs, and the spawn options that only the
   * built-in adapters understand (mode, ptyFallback, cwd, env, cols, rows, term, shell) are refused.
   */
  adapterFactory?: (signal: AbortSignal) => Promise<ProcessAdapter>;
  /**
   * The caller's graceful step before a forced kill (a timeout, cancel(), an abort), called
   * with the reason, which is recorded first: e.g. hang a terminal up, so a shell ends as when
   * its window closes. The tree kill follows once it settles, if the process still runs.
   */
  beforeForceKill?: (reason: TerminationReason) => Promise<void> | void;
  /**
   * The session's cgroup (Linux, built-in adapters only): the first process joins it before
   * it execs the command, the watchdog knows it, and when the run ends whatever is left in
   * it is killed and the cgroup removed (before wait() resolves). The run owns it from here.
   */
  cgroup?: SessionCgroup;
  /**
   * A directory on this host the run's process uses and its owner removes when it ends (an OS
   * sandbox's private dir, `procmux-*`, built-in adapters only): the watchdog removes it too,
   * after the tree kill, if the host dies first.
   */
  privateDir?: string;
  /**
   * Runs the process in a pid namespace of its own (Linux, built-in adapters only, not with
   * `cgroup`): when the run ends, or its waiter is killed, the kernel kills every process in
   * it. Signals go to the program; its exit code or signal is reported as its own. See
   * `hostPidNamespaceSupport()` for whether (and how) this host can make one.
   */
  pidNamespace?: PidNamespaceSpec;
  /**
   * Runs the process in a delegated systemd user scope named `unit` (`systemd-run --user
   * --scope -p Delegate=yes`; Linux, a non-root host with a user manager, built-in adapters
   * only, not with `cgroup` or `pidNamespace`): when the run ends every process left in the
   * scope is SIGKILLed. See `hostSystemdScopeSupport()`. Never ran on the VM procmux is
   * tested on (root, no user manager).
   */
  systemdScope?: { unit: string };
  /**
   * End what of the tree still runs when the process itself exits, naming it first (Linux,
   * built-in pipe runs): RunExit.leftovers, listed before the drain, the stdin terminal's
   * hang-up or the cgroup's kill, then the tree kill. With stdin 'terminal' a bash runs with
   * job control (`set -m`), so its background jobs have process groups of their own and the
   * hang-up as it exits does not end them unseen. Default false (a /proc walk per exit).
   */
  endLeftovers?: boolean;
}

/** SpawnOptions after validation, with defaults applied. */
export interface NormalizedSpawn {
  target: SpawnTarget;
  mode: StdioMode;
  ptyFallback: 'pipe' | 'fail';
  cwd: string | undefined;
  env: Readonly<Record<string, string | undefined>> | undefined;
  cols: number | undefined;
  rows: number | undefined;
  term: string | undefined;
  stdin: StdinMode;
  input: string | Uint8Array | undefined;
  timeoutMs: number | undefined;
  noOutputTimeoutMs: number | undefined;
  onStdout: OutputListener | undefined;
  onStderr: OutputListener | undefined;
  signal: AbortSignal | undefined;
  maxCaptureBytes: number;
  screen: ScreenLike | undefined;
  adapterFactory: ((signal: AbortSignal) => Promise<ProcessAdapter>) | undefined;
  beforeForceKill: ((reason: TerminationReason) => Promise<void> | void) | undefined;
  cgroup: SessionCgroup | undefined;
  privateDir: string | undefined;
  pidNamespace: PidNamespaceSpec | undefined;
  systemdScope: { unit: string } | undefined;
  endLeftovers: boolean;
}

const BUILT_IN_ONLY = [
  'mode',
  'ptyFallback',
  'cwd',
  'env',
  'cols',
  'rows',
  'term',
  'shell',
  'cgroup',
  'privateDir',
  'pidNamespace',
  'systemdScope',
] as const;

/** Validates spawn options; a bad value is an ERR_INVALID_OPTION naming it. */
export function normalizeSpawnOptions(options: SpawnOptions): NormalizedSpawn {
  if (typeof options !== 'object' || options === null)
    throw invalidOption('spawn options', 'an object', { value: options });
  const adapterFactory = functionOption<NonNullable<NormalizedSpawn['adapterFactory']>>(
    'adapterFactory',
    options.adapterFactory,
  );
  let target: SpawnTarget;
  if (adapterFactory === undefined) {
    target = checkTarget(options);
  } else {
    for (const name of BUILT_IN_ONLY) {
      if (options[name] !== undefined) {
        throw invalidOption(
          name,
          'left out with adapterFactory (the factory decides how the process starts)',
        );
      }
    }
    target = options.command === undefined && options.file === undefined ? {} : checkTarget(options);
  }
  const mode = oneOf<StdioMode>('mode', options.mode, ['pty', 'pipe']) ?? 'pipe';
  const screen = checkScreen(options.screen);
  return {
    target,
    mode,
    ptyFallback: oneOf<'pipe' | 'fail'>('ptyFallback', options.ptyFallback, ['pipe', 'fail']) ?? 'fail',
    cwd: nonEmptyString('cwd', options.cwd),
    env: envOption(options.env),
    cols: integerOption('cols', options.cols, { min: 1, max: TERMINAL_COLUMNS_LIMIT.hard }),
    rows: integerOption('rows', options.rows, { min: 1, max: TERMINAL_ROWS_LIMIT.hard }),
    term: checkTerm(options.term),
    stdin: checkStdin(options.stdin, mode, adapterFactory !== undefined),
    input: checkInput(options.input),
    timeoutMs: integerOption('timeoutMs', options.timeoutMs, { min: 1, max: MAX_TIMEOUT_MS }),
    noOutputTimeoutMs: integerOption('noOutputTimeoutMs', options.noOutputTimeoutMs, {
      min: 1,
      max: MAX_TIMEOUT_MS,
    }),
    onStdout: functionOption('onStdout', options.onStdout),
    onStderr: functionOption('onStderr', options.onStderr),
    signal: checkSignal(options.signal),
    maxCaptureBytes:
      integerOption('maxCaptureBytes', options.maxCaptureBytes, {
        min: 0,
        max: OUTPUT_TOTAL_BYTES_LIMIT.hard,
      }) ?? DEFAULT_MAX_CAPTURE_BYTES,
    screen,
    adapterFactory,
    beforeForceKill: functionOption('beforeForceKill', options.beforeForceKill),
    cgroup: checkCgroup(options.cgroup),
    privateDir: checkPrivateDir(options.privateDir),
    pidNamespace: checkPidNamespace(options.pidNamespace, options.cgroup),
    systemdScope: checkSystemdScope(options),
    endLeftovers: booleanOption('endLeftovers', options.endLeftovers, false),
  };
}

// The watchdog removes it recursively: only an absolute path to a directory procmux named.
function checkPrivateDir(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && isPrivateDir(value)) return value;
  throw invalidOption('privateDir', 'an absolute path whose last part starts with "procmux-", without ".."', {
    value,
  });
}

function checkPidNamespace(value: unknown, cgroup: unknown): PidNamespaceSpec | undefined {
  if (value === undefined) return undefined;
  const spec = value as Partial<PidNamespaceSpec> | null;
  if (typeof spec !== 'object' || spec === null || typeof spec.userNamespace !== 'boolean')
    throw invalidOption('pidNamespace', 'an object { userNamespace: boolean }', { value });
  if (cgroup !== undefined)
    throw invalidOption('pidNamespace', 'left out with cgroup (a session is held by one of the two)');
  return { userNamespace: spec.userNamespace };
}

function checkSystemdScope(options: SpawnOptions): { unit: string } | undefined {
  const value: unknown = options.systemdScope;
  if (value === undefined) return undefined;
  const unit = (value as { unit?: unknown } | null)?.unit;
  if (typeof unit !== 'string' || !/^[A-Za-z0-9_.-]{1,200}$/.test(unit))
    throw invalidOption(
      'systemdScope',
      'an object { unit } with a unit name of 1 to 200 of A-Z a-z 0-9 _ . -',
      {
        value,
      },
    );
  if (options.cgroup !== undefined || options.pidNamespace !== undefined)
    throw invalidOption(
      'systemdScope',
      'left out with cgroup or pidNamespace (a session is held by one of them)',
    );
  return { unit };
}

/** 'terminal' is a pipe child's stdin: a PTY or a factory's adapter decides its own. */
function checkStdin(value: unknown, mode: StdioMode, factory: boolean): StdinMode {
  const stdin = oneOf<StdinMode>('stdin', value, ['open', 'closed', 'terminal']);
  if (stdin === 'terminal' && (mode === 'pty' || factory)) {
    throw invalidOption(
      'stdin',
      "'terminal' only with mode 'pipe' and no adapterFactory (a PTY already is one)",
      {
        value,
      },
    );
  }
  return stdin ?? (mode === 'pty' || factory ? 'open' : 'closed');
}

function checkCgroup(value: unknown): SessionCgroup | undefined {
  if (value === undefined || value instanceof SessionCgroup) return value;
  throw invalidOption('cgroup', 'a SessionCgroup', { value });
}

function checkTerm(value: unknown): string | undefined {
  const term = nonEmptyString('term', value);
  if (term !== undefined && (Buffer.byteLength(term) > TERM_BYTES_LIMIT.hard || /[\s=]/.test(term))) {
    throw invalidOption('term', `a terminal name of at most ${TERM_BYTES_LIMIT.hard} bytes without spaces`, {
      value: value,
    });
  }
  return term;
}

function checkSignal(value: unknown): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (value instanceof AbortSignal) return value;
  throw invalidOption('signal', 'an AbortSignal', { value: value });
}

function checkScreen(value: unknown): ScreenLike | undefined {
  if (value === undefined) return undefined;
  const screen = value as Partial<ScreenLike> | null;
  if (
    typeof screen === 'object' &&
    screen !== null &&
    typeof screen.feed === 'function' &&
    typeof screen.onReply === 'function'
  ) {
    return value as ScreenLike;
  }
  throw invalidOption('screen', 'a screen with feed(), cursor and onReply() (a TerminalScreen)', {
    value: value,
  });
}

// The one place in kill-posix that knows which OS it is on. Everything it returns is built
// from injectable parts, so each platform's path runs in tests on any machine.
import { ProcmuxError, TREE_MARKER_ENV } from '@procmux/core-types';
import { procAlive, procGroup, readProcTable } from './procfs.js';
import { parsePsOutput, psEnvArgs, psReader } from './ps.js';
import type { KillEffects, ProcessEntry, SignalOutcome, TreeSignal } from './types.js';

/** Where the process table comes from: /proc (Linux, Android) or one `ps` call (the rest). */
export type TableSource = 'procfs' | 'ps';

/** The parts of the outside world a tree kill uses; each defaults to the real one. */
export interface PlatformDeps {
  /** /proc's mount point (procfs platforms). */
  procRoot?: string;
  /** Output of ps (ps platforms): PS_ARGS' columns, or psEnvArgs' with environments. */
  readPs?: () => Promise<string>;
  /** The ps arguments that print environments; default psEnvArgs(platform), null for none. */
  psEnvArgs?: readonly string[] | null;
  /** Runs ps with these arguments (ps platforms, when readPs is not given); default /bin/ps. */
  runPs?: (args: readonly string[]) => Promise<string>;
  /** process.kill's shape: a negative pid is a process group, signal 0 only checks. */
  kill?: (pid: number, signal: TreeSignal | 0) => void;
  selfPid?: number;
  env?: Readonly<Record<string, string | undefined>>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Which table source serves `platform`; Windows is not POSIX and has its own package. */
export function tableSourceFor(platform: NodeJS.Platform): TableSource {
  if (platform === 'win32') {
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      '@procmux/kill-posix cannot kill process trees on win32; use @procmux/kill-windows there',
      { details: { platform, package: '@procmux/kill-windows' } },
    );
  }
  return platform === 'linux' || platform === 'android' ? 'procfs' : 'ps';
}

function errorCode(error: unknown): unknown {
  return (error as NodeJS.ErrnoException | null)?.code;
}

function signalWith(kill: NonNullable<PlatformDeps['kill']>) {
  return (target: number, signal: TreeSignal): SignalOutcome => {
    try {
      kill(target, signal);
      return 'sent';
    } catch (error) {
      if (errorCode(error) === 'ESRCH') return 'gone';
      if (errorCode(error) === 'EPERM') return 'denied';
      throw error;
    }
  };
}

/** kill(pid, 0): all a platform without /proc can ask cheaply. EPERM means it exists. */
function existsWith(kill: NonNullable<PlatformDeps['kill']>) {
  return (entry: ProcessEntry): boolean => {
    try {
      kill(entry.pid, 0);
      return true;
    } catch (error) {
      return errorCode(error) === 'EPERM';
    }
  };
}

async function tableOrError(read: () => ProcessEntry[] | Promise<ProcessEntry[]>, source: TableSource) {
  try {
    return await read();
  } catch (cause) {
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      `could not read the process table (${source === 'procfs' ? '/proc' : 'ps'}), so the tree cannot be found`,
      { cause, details: { source } },
    );
  }
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The effects of a tree kill on `platform`: Linux reads /proc (state, parent, group, start
 * time and the tree marker of every process); other POSIX systems run ps once per snapshot
 * (with environments, hence markers, where ps can print them: macOS -E, the BSDs -e) and
 * check liveness with kill(pid, 0). Throws ERR_PROCESS_UNSUPPORTED on win32.
 */
export function killEffectsFor(platform: NodeJS.Platform, deps: PlatformDeps = {}): KillEffects {
  const source = tableSourceFor(platform);
  const kill = deps.kill ?? ((pid, signal) => process.kill(pid, signal));
  const procRoot = deps.procRoot ?? '/proc';
  const envArgs = deps.psEnvArgs === null ? undefined : (deps.psEnvArgs ?? psEnvArgs(platform));
  const readPs = deps.readPs ?? psReader(envArgs, deps.runPs);
  return {
    selfPid: deps.selfPid ?? process.pid,
    selfMarker: (deps.env ?? process.env)[TREE_MARKER_ENV],
    snapshot:
      source === 'procfs'
        ? () => tableOrError(() => readProcTable(procRoot), source)
        : () => tableOrError(async () => parsePsOutput(await readPs()), source),
    isAlive: source === 'procfs' ? (entry) => procAlive(entry, procRoot) : existsWith(kill),
    ...(source === 'procfs' ? { groupOf: (entry: ProcessEntry) => procGroup(entry, procRoot) } : {}),
    signal: signalWith(kill),
    sleep: deps.sleep ?? realSleep,
    now: deps.now ?? Date.now,
  };
}

/** The effects for the platform we are running on. */
export function currentKillEffects(): KillEffects {
  return killEffectsFor(process.platform);
}

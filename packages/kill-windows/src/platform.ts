// The one place in kill-windows that touches the real OS; tests inject every part of it.
import { execFile } from 'node:child_process';
import { ProcmuxError } from '@procmux/core-types';
import { POWERSHELL_ARGS, parseProcessTable, powershellPath, type WindowsProcess } from './process-table.js';

/** How a program run ended: its exit code (null when it was killed or timed out) and output. */
export interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Everything the Windows tree kill does to the outside world. */
export interface WindowsKillEffects {
  readonly selfPid: number;
  /** The environment SystemRoot is read from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Runs a program without a shell; rejects only when it cannot be started at all. */
  exec(file: string, args: readonly string[]): Promise<ExecResult>;
  /** Whether a process with the pid exists. */
  isAlive(pid: number): boolean;
  /**
   * Every process with its parent and creation time, for the sweep after taskkill. Optional:
   * without it (or when it rejects) the report speaks for the root only.
   */
  processTable?(): Promise<WindowsProcess[]>;
  sleep(ms: number): Promise<void>;
  now(): number;
}

/** taskkill that hangs longer than this is stopped; the liveness check then decides. */
export const EXEC_TIMEOUT_MS = 15_000;

/**
 * Runs `file` with `args` through execFile (no shell, no window). A non-zero exit resolves
 * with its code; only a program that cannot be started rejects.
 */
export function runFile(
  file: string,
  args: readonly string[],
  timeoutMs = EXEC_TIMEOUT_MS,
): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { windowsHide: true, timeout: timeoutMs, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error === null) resolve({ code: 0, stdout, stderr });
        else if (typeof error.code === 'number') resolve({ code: error.code, stdout, stderr });
        else if (error.killed || error.signal) resolve({ code: null, stdout, stderr });
        else reject(error);
      },
    );
  });
}

/** process.kill(pid, 0): ESRCH means gone; EPERM means it exists but is not ours. */
export function pidExists(pid: number, kill: (pid: number, signal: 0) => void = process.kill): boolean {
  try {
    kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The real effects; ERR_PROCESS_UNSUPPORTED anywhere but win32. */
export function windowsKillEffects(
  platform: NodeJS.Platform = process.platform,
  env: Readonly<Record<string, string | undefined>> = process.env,
): WindowsKillEffects {
  if (platform !== 'win32') {
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      `@procmux/kill-windows kills process trees only on win32 (this is ${platform}); use @procmux/kill-posix`,
      { details: { platform, package: '@procmux/kill-posix' } },
    );
  }
  return {
    selfPid: process.pid,
    env,
    exec: (file, args) => runFile(file, args),
    isAlive: (pid) => pidExists(pid),
    processTable: () => readProcessTable(env),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: Date.now,
  };
}

/** Runs the CIM query (PowerShell from under SystemRoot, no profile); rejects when it fails. */
export async function readProcessTable(
  env: Readonly<Record<string, string | undefined>>,
  run: (file: string, args: readonly string[]) => Promise<ExecResult> = (file, args) =>
    runFile(file, args, PROCESS_TABLE_TIMEOUT_MS),
): Promise<WindowsProcess[]> {
  const result = await run(powershellPath(env), POWERSHELL_ARGS);
  const table = parseProcessTable(result.stdout);
  if (result.code !== 0 || table.length === 0) {
    throw new Error(`the process table query failed (exit ${result.code}): ${result.stderr.slice(0, 200)}`);
  }
  return table;
}

/** PowerShell starts in about a second on a busy CI runner; more than this means it hangs. */
export const PROCESS_TABLE_TIMEOUT_MS = 30_000;

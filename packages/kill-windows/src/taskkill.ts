// taskkill.exe: where it lives, what to pass it, what its exit codes mean.
import { win32 } from 'node:path';

/** Where Windows lives when the environment does not say. */
export const DEFAULT_SYSTEM_ROOT = 'C:\\Windows';

/** taskkill's exit code when no process has the pid. */
export const TASKKILL_NOT_FOUND = 128;

/** Windows environment names are case-insensitive; a plain object's keys are not. */
function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(env)) if (key.toLowerCase() === lower) return value;
  return undefined;
}

/**
 * The absolute path of taskkill.exe under %SystemRoot%, so neither PATH nor the current
 * directory can substitute another program. A SystemRoot that is not an absolute path is
 * ignored in favour of C:\Windows.
 */
export function taskkillPath(env: Readonly<Record<string, string | undefined>>): string {
  return win32.join(systemRoot(env), 'System32', 'taskkill.exe');
}

/** %SystemRoot% when it is an absolute path, else C:\Windows. */
export function systemRoot(env: Readonly<Record<string, string | undefined>>): string {
  const root = envValue(env, 'SystemRoot');
  return root !== undefined && win32.isAbsolute(root) ? root : DEFAULT_SYSTEM_ROOT;
}

/** `/PID <pid> /T`, plus `/F` for the forced kill. */
export function taskkillArgs(pid: number, force: boolean): string[] {
  return force ? ['/PID', String(pid), '/T', '/F'] : ['/PID', String(pid), '/T'];
}

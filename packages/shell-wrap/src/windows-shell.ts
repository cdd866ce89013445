import type { Env, WindowsShell } from './types.js';

/** Every shell `resolveShell` can return. */
export const WINDOWS_SHELLS: readonly WindowsShell[] = ['cmd', 'powershell', 'pwsh'];

/** The environment variable that picks the default Windows shell. */
export const WINDOWS_SHELL_ENV = 'PROCMUX_WINDOWS_SHELL';
/** Read when WINDOWS_SHELL_ENV is unset: the name the Kerkov spec uses for the same choice. */
export const WINDOWS_SHELL_ENV_ALIAS = 'WINDOWS_DEFAULT_SHELL';

/**
 * Maps a shell name or path to the Windows shell procmux drives: `cmd`, `powershell` or
 * `pwsh`, case-insensitively, with or without `.exe` or a directory (`C:\\…\\pwsh.exe`).
 * Anything else, and no name at all, falls back to cmd rather than failing the spawn:
 * cmd exists on every Windows machine.
 *
 * @example
 * resolveShell('PowerShell.exe'); // 'powershell'
 * resolveShell('bash');           // 'cmd'
 */
export function resolveShell(name?: string): WindowsShell {
  const base = shellName(name ?? '');
  return (WINDOWS_SHELLS as readonly string[]).includes(base) ? (base as WindowsShell) : 'cmd';
}

/** `C:\\…\\PowerShell.exe` → `powershell`: the file's name, lowercase, without `.exe`. */
function shellName(path: string): string {
  return baseName(path)
    .toLowerCase()
    .replace(/\.exe$/, '');
}

/**
 * The default Windows shell: `PROCMUX_WINDOWS_SHELL` from `env` resolved, else its alias
 * `WINDOWS_DEFAULT_SHELL`, else cmd. PROCMUX_WINDOWS_SHELL wins when both are set.
 */
export function defaultWindowsShell(env: Env = process.env): WindowsShell {
  return resolveShell(requestedWindowsShell(env));
}

/** The shell name or path the environment asks for, if any (see defaultWindowsShell). */
export function requestedWindowsShell(env: Env): string | undefined {
  return windowsEnvValue(env, WINDOWS_SHELL_ENV) ?? windowsEnvValue(env, WINDOWS_SHELL_ENV_ALIAS);
}

/**
 * The executable for a resolved shell. A path the caller gave is kept (it names the exact
 * PowerShell install wanted); otherwise cmd is COMSPEC, as Node's own `shell: true` does.
 */
export function windowsShellFile(
  shell: WindowsShell,
  requested: string | undefined,
  comspec: string | undefined,
): string {
  // Only a path to that very shell: `C:\\tools\\bash.exe` falls back to cmd, and must not
  // then be run with cmd's arguments.
  if (requested !== undefined && /[\\/]/.test(requested) && shellName(requested) === shell) return requested;
  if (shell === 'cmd') return comspec ?? 'cmd.exe';
  return `${shell}.exe`;
}

/** Windows environment names are case-insensitive (`ComSpec`, `COMSPEC`); a plain object is not. */
export function windowsEnvValue(env: Env, name: string): string | undefined {
  const wanted = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) {
    if (key.toUpperCase() === wanted && value !== undefined && value !== '') return value;
  }
  return undefined;
}

function baseName(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return path.slice(cut + 1);
}

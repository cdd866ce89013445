import { accessSync, constants, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ProcmuxError } from '@procmux/core-types';
import { findExecutable } from '@procmux/shell-wrap';

/**
 * Rejects with ERR_PROCESS_SPAWN when `cwd` is not an existing directory. Checked before
 * spawn because Node reports a missing cwd as ENOENT, indistinguishable from a missing file.
 */
export async function assertDirectory(cwd: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(cwd)).isDirectory();
  } catch (cause) {
    throw new ProcmuxError('ERR_PROCESS_SPAWN', `cwd does not exist: ${JSON.stringify(cwd)}`, {
      cause,
      details: { cwd },
    });
  }
  if (!isDirectory) {
    throw new ProcmuxError('ERR_PROCESS_SPAWN', `cwd is not a directory: ${JSON.stringify(cwd)}`, {
      details: { cwd },
    });
  }
}

/** Turns the error Node emits for a failed spawn of `file` into an ERR_PROCESS_SPAWN. */
export function spawnError(file: string, cause: unknown): ProcmuxError {
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  const name = JSON.stringify(file);
  const message =
    code === 'ENOENT'
      ? `command not found: ${name}`
      : code === 'EACCES'
        ? `command is not executable: ${name}`
        : `could not start ${name}${code ? ` (${code})` : ''}`;
  return new ProcmuxError('ERR_PROCESS_SPAWN', message, { cause, details: { file, errno: code } });
}

/**
 * POSIX: rejects with ERR_PROCESS_SPAWN when execvp would not run `file` (searched as the
 * child will: relative to `cwd`, on the child's PATH), with the errno exec would give.
 * Needed because the child starts through bash (which closes inherited descriptors), so a
 * missing program would otherwise surface as exit 127 instead of a spawn error. Windows
 * spawns directly and reports the failure itself.
 */
export function assertExecutable(
  file: string,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): void {
  if (platform === 'win32') return;
  if (!file.includes('/')) {
    if (findExecutable(file, cwd, env) !== undefined) return;
    throw spawnError(file, errno('ENOENT'));
  }
  const path = resolve(cwd, file);
  try {
    accessSync(path, constants.X_OK);
  } catch (error) {
    throw spawnError(file, error);
  }
  // execve of a directory fails with EACCES.
  if (!statSync(path).isFile()) throw spawnError(file, errno('EACCES'));
}

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

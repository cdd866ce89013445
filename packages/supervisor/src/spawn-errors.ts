import { stat } from 'node:fs/promises';
import { ProcmuxError } from '@procmux/core-types';

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

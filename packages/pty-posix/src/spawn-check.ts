import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { ProcmuxError } from '@procmux/core-types';
import { findExecutable } from '@procmux/shell-wrap';
import type { ResolvedSpawn } from './spawn-options.js';

/**
 * Refuses, before forking, a spawn that cannot start: a cwd that is not an existing
 * directory, or a program execvp would not find. node-pty's child would otherwise report
 * either only as exit code 1 with a message on the terminal. (A race, such as the program
 * being deleted between this check and the exec, still ends that way.)
 */
export function assertSpawnable(spawn: ResolvedSpawn): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(spawn.cwd).isDirectory();
  } catch {
    throw spawnError(`cwd does not exist: ${spawn.cwd}`, { cwd: spawn.cwd, missing: 'cwd' });
  }
  if (!isDirectory)
    throw spawnError(`cwd is not a directory: ${spawn.cwd}`, { cwd: spawn.cwd, missing: 'cwd' });
  if (findExecutable(spawn.file, spawn.cwd, spawn.env) !== undefined) return;
  throw spawnError(`executable not found: ${spawn.file} (${whereSearched(spawn)})`, {
    file: spawn.file,
    missing: 'file',
  });
}

function whereSearched(spawn: ResolvedSpawn): string {
  if (isAbsolute(spawn.file)) return 'no executable file at that path';
  if (spawn.file.includes('/')) return `no executable file at that path relative to cwd ${spawn.cwd}`;
  return "no executable file of that name on the child's PATH";
}

function spawnError(message: string, details: Record<string, unknown>): ProcmuxError {
  return new ProcmuxError('ERR_PROCESS_SPAWN', message, { details });
}

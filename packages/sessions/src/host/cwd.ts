import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { invalidOption, ProcmuxError } from '@procmux/core-types';

/**
 * Resolves a session's working directory against the workspace, following symlinks, and
 * refuses anything that lands outside it (a `..` or a symlink pointing out) before a spawn.
 */
export function resolveSessionCwd(workspace: string, requested?: string): string {
  const root = realpath(workspace, 'the workspace cwd');
  if (requested !== undefined && typeof requested !== 'string') {
    throw invalidOption('cwd', 'a string path inside the workspace', { value: requested });
  }
  const target = requested === undefined || requested === '' ? root : resolve(root, requested);
  const real = realpath(target, `cwd "${requested}"`);
  const rel = relative(root, real);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return real;
  throw new ProcmuxError(
    'ERR_PROCESS_POLICY',
    `cwd "${requested}" resolves outside the workspace (${root}); a session's cwd must stay inside it`,
  );
}

function realpath(path: string, what: string): string {
  try {
    return realpathSync(path);
  } catch (cause) {
    throw new ProcmuxError('ERR_PROCESS_POLICY', `${what} does not exist or cannot be resolved: ${path}`, {
      cause,
    });
  }
}

import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ProcmuxError } from '@procmux/core-types';
import { resolveSessionCwd } from '@procmux/sessions';
import { type ActionContext, sessionReply } from './action-context.js';
import { invalid } from './params.js';
import type { ToolResult } from './types.js';

/**
 * record: writes the session's output so far as an asciicast v2 file (asciinema plays it) to
 * `path` inside the workspace (default `<session_id>.cast` at its root); returns the path.
 * Input is never in it.
 */
export async function recordAction(ctx: ActionContext): Promise<ToolResult> {
  const requested = ctx.values.path;
  const session = ctx.session();
  const workspace = ctx.sessions.cwd;
  if (workspace === undefined || typeof session.asciicast !== 'function') {
    throw new ProcmuxError('ERR_PROCESS_UNSUPPORTED', 'this host does not support recordings');
  }
  const path = await recordingPath(workspace, requested ?? `${session.id}.cast`);
  const cast = await session.asciicast();
  // O_NOFOLLOW: a symlink planted at the path must not redirect the write outside the workspace.
  const file = await open(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0),
    0o644,
  );
  try {
    await file.writeFile(cast);
  } finally {
    await file.close();
  }
  const events = cast.split('\n').length - 2;
  const shown = relative(resolveSessionCwd(workspace), path);
  return sessionReply(ctx, session, {
    header: `Recorded ${session.id} to ${shown} (asciicast v2, ${events} event${events === 1 ? '' : 's'}; play it with asciinema play).`,
    data: { recording: { path } },
  });
}

/** The file's real path: its directory must exist inside the workspace; the file must not be a link. */
async function recordingPath(workspace: string, requested: string): Promise<string> {
  const root = resolveSessionCwd(workspace);
  const target = isAbsolute(requested) ? requested : resolve(root, requested);
  const name = basename(target);
  if (name === '' || name === '.' || name === '..') {
    throw invalid('path', `path must name a file (got "${requested}")`);
  }
  let directory: string;
  try {
    directory = resolveSessionCwd(root, dirname(target));
  } catch (error) {
    throw new ProcmuxError(
      'ERR_PROCESS_POLICY',
      `path "${requested}" must be a file in an existing directory inside the workspace (${root})`,
      { cause: error },
    );
  }
  const path = join(directory, name);
  const existing = await lstat(path).catch(() => undefined);
  if (existing && !existing.isFile()) {
    throw new ProcmuxError(
      'ERR_PROCESS_POLICY',
      `path "${requested}" exists and is not a regular file; recordings are written to regular files only`,
    );
  }
  return path;
}

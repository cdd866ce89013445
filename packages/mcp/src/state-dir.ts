// Where `procmux mcp` keeps what it remembers: outside the workspace, one directory per
// workspace, and one server at a time driving it.
import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { invalidOption, ProcmuxError } from '@procmux/core-types';

/** 16 hex digits of SHA-256 of the workspace's real path. */
export function workspaceHash(workspace: string): string {
  let real = workspace;
  try {
    real = realpathSync(workspace);
  } catch {}
  return createHash('sha256').update(real).digest('hex').slice(0, 16);
}

/** `$XDG_STATE_HOME/procmux/<hash>`, else `~/.local/state/procmux/<hash>`. */
export function defaultStateDir(
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  return join(stateRoot(env, home), workspaceHash(workspace));
}

/** Where every workspace's default state dir lives: `$XDG_STATE_HOME/procmux` or `~/.local/state/procmux`. */
export function stateRoot(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const xdg = env.XDG_STATE_HOME;
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, '.local', 'state');
  return join(base, 'procmux');
}

// The workspace a state dir belongs to, by path: the dir's name is only a hash of it, and
// `prune --gone` must tell which dirs outlived their workspace.
const WORKSPACE_MARK = 'workspace';

/** Writes the workspace's path into its state dir. */
export function markWorkspace(dir: string, workspace: string): void {
  writeFileSync(join(dir, WORKSPACE_MARK), `${workspace}\n`, { mode: 0o600 });
}

/** The workspace path a state dir was made for, or undefined (no mark: an older dir). */
export function markedWorkspace(dir: string): string | undefined {
  try {
    const text = readFileSync(join(dir, WORKSPACE_MARK), 'utf8').trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

/** The state directory to use; one inside the workspace is ERR_INVALID_OPTION (commands could touch it). */
export function resolveStateDir(
  workspace: string,
  given: string | undefined,
  env?: NodeJS.ProcessEnv,
): string {
  const dir = given === undefined ? defaultStateDir(workspace, env) : resolve(workspace, given);
  const inside = relative(resolve(workspace), dir);
  if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) {
    // The path goes in the text, not as `value`: a long one would show only as its length.
    throw invalidOption(
      'stateDir',
      `a directory outside the workspace ${workspace} (${dir} is inside the workspace; the default is under ~/.local/state/procmux)`,
    );
  }
  return dir;
}

export interface ServerLock {
  /** The replica id records are written under. */
  ownerId: string;
  /** False when another live server holds the directory: this one drives none of its sessions. */
  primary: boolean;
  /** The pid of the server holding the directory when this one is not primary. */
  holder: number | undefined;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<dir>/server.lock` for this process. The holder writes under the workspace's own
 * owner id, so after a crash or restart the next server takes its leases back at once; a
 * second server while the first lives gets an owner id of its own, and the first one's
 * leases refuse it (ERR_RECOVERY_OWNERSHIP) until they lapse.
 */
export function acquireServerLock(dir: string, workspace: string): ServerLock {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, 'server.lock');
  const base = `mcp-${workspaceHash(workspace)}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return {
        ownerId: base,
        primary: true,
        holder: undefined,
        release: () => {
          try {
            if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
          } catch {}
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(path, 'utf8'));
    } catch {}
    if (Number.isSafeInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
      return { ownerId: `${base}-${process.pid}`, primary: false, holder, release: () => {} };
    }
    // A lock left by a server that is gone.
    try {
      unlinkSync(path);
    } catch {}
  }
  throw new ProcmuxError('ERR_RECOVERY_UNKNOWN', `could not take the state directory lock ${path}`);
}

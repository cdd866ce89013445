// Talking to one private tmux server: every call names its socket (-S) and reads no user
// configuration (-f /dev/null), so the user's own server and ~/.tmux.conf are never touched.
import { execFile, execFileSync } from 'node:child_process';
import { ProcmuxError } from '@procmux/core-types';

/** The oldest tmux these sessions were measured on: `#{pane_dead_signal}` appeared in 3.3. */
export const MIN_TMUX_VERSION = '3.3';

const INSTALL =
  'install tmux 3.3 or newer (Debian/Ubuntu: apt-get install tmux; macOS: brew install tmux; Fedora: dnf install tmux)';

export interface TmuxBinary {
  path: string;
  version: string;
}

/** Parses `tmux -V` output ("tmux 3.3a", "tmux next-3.4", "tmux 3.5") into [major, minor]. */
export function parseTmuxVersion(output: string): [number, number] | undefined {
  const match = /(\d+)\.(\d+)/.exec(output);
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2])];
}

/** True when `version` ("3.3a") is at least MIN_TMUX_VERSION. */
export function versionSupported(version: [number, number]): boolean {
  const [major, minor] = MIN_TMUX_VERSION.split('.').map(Number) as [number, number];
  return version[0] > major || (version[0] === major && version[1] >= minor);
}

/**
 * Finds tmux and checks its version; ERR_PROCESS_UNSUPPORTED naming what to install when it
 * is missing, too old, or on Windows. Nothing falls back to another backend.
 */
export function locateTmux(
  platform: NodeJS.Platform = process.platform,
  run: (file: string, args: string[]) => string = (file, args) =>
    execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5_000 }),
  file = 'tmux',
): TmuxBinary {
  if (platform === 'win32') {
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      '@procmux/backend-tmux runs on Linux and macOS only (tmux is a POSIX program); on Windows use the native PTY backend',
    );
  }
  let output: string;
  try {
    output = run(file, ['-V']);
  } catch {
    throw new ProcmuxError('ERR_PROCESS_UNSUPPORTED', `tmux was not found on PATH; ${INSTALL}`);
  }
  const version = parseTmuxVersion(output);
  if (!version || !versionSupported(version)) {
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      `tmux ${output.trim() || '(unknown version)'} is too old for persistent sessions; ${INSTALL}`,
    );
  }
  let path = file;
  try {
    path = run('sh', ['-c', 'command -v tmux']).trim() || file;
  } catch {}
  return { path, version: output.trim() };
}

export interface TmuxResult {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * Runs one program to its end on the machine that holds the tmux server: this one (execFile)
 * or another (over SSH). Never throws: a failure is a non-zero code.
 */
export type TmuxExec = (file: string, args: readonly string[], input?: Buffer) => Promise<TmuxResult>;

// tmux's own words for a server that is not there (it ended, or never ran on the socket) and
// for a session it does not have: the failures that mean "gone". Any other (a client that
// timed out, a server that exited under the command, a shell that did not answer) says
// nothing of the sessions, and is never read as "none".
const GONE = /no server running|error connecting to|can't find session|session not found/;

// What a client says when the server went away during its command: for a listing, nothing is
// left to list (its sessions went with it), as for "no server running" a moment later. A
// lookup of one session reads it as no answer instead (its pane may have outlived the hangup).
const EXITED = /server exited unexpectedly/;

/** How often, 50 ms apart, a command the server exited under is asked again (~1 s in all). */
const EXITING_TRIES = 20;

/**
 * Runs `args`, asking again while the answer is that the server exited under the command (its
 * last session just ended: it is going, not gone): once it is gone tmux says so plainly, and a
 * lookup reads that as the session gone rather than as no answer.
 */
export async function runPastExit(
  run: (args: readonly string[]) => Promise<TmuxResult>,
  args: readonly string[],
): Promise<TmuxResult> {
  let result = await run(args);
  for (let tries = 1; tries < EXITING_TRIES && result.code !== 0 && EXITED.test(result.stderr); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    result = await run(args);
  }
  return result;
}

/** True when a failed tmux command failed because the server (or the session) is not there. */
export function saysGone(result: TmuxResult): boolean {
  return result.code !== 0 && GONE.test(result.stderr);
}

// A server with no session left (its last just ended, before exit-empty stops it) answers
// `list-panes -a` so: nothing to list, as `list-sessions` answers with nothing then.
const NO_SESSIONS = /no current target/;

/** Whether a listing (`list-panes -a`) failed only because the server has no session. */
export function saysEmpty(result: TmuxResult): boolean {
  return result.code !== 0 && NO_SESSIONS.test(result.stderr);
}

/** Why a tmux command failed, in tmux's words (or its exit code). */
export function failureWords(result: TmuxResult): string {
  return result.stderr.trim() || `exit code ${result.code}`;
}

/** One tmux server, addressed by its socket path. */
export class TmuxServer {
  readonly #exec: TmuxExec;

  constructor(
    readonly binary: TmuxBinary,
    readonly socket: string,
    /** Environment of tmux clients (the server, once started, inherits it); local exec only. */
    env: Record<string, string>,
    /** Where tmux runs: this machine by default. */
    exec?: TmuxExec,
  ) {
    this.#exec = exec ?? localExec(env);
  }

  /** The shell command a person types to watch or take over a session. */
  attachCommand(session: string): string {
    return `tmux -S ${shellQuote(this.socket)} attach -t ${shellQuote(session)}`;
  }

  /** Runs one tmux command line (`args` may chain commands with ';'); never throws. */
  run(args: readonly string[], input?: Buffer): Promise<TmuxResult> {
    return this.#exec(this.binary.path, ['-S', this.socket, '-f', '/dev/null', ...args], input);
  }

  /** The server's pid while it runs. */
  async pid(): Promise<number | undefined> {
    const out = await this.run(['display-message', '-p', '#{pid}']);
    const pid = Number(out.stdout.trim());
    return out.code === 0 && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  }

  /**
   * The output of a listing (`list-sessions`, `list-panes -a`): '' when no server runs there
   * (or it exited under the listing, or has no session left). A listing that failed otherwise (or could not be run) is
   * ERR_PROCESS_PTY_BACKEND naming why: read as "none", it had killServer() leave a live tree
   * and listSessions() say empty.
   */
  async list(args: readonly string[]): Promise<string> {
    let result: TmuxResult;
    try {
      result = await this.run(args);
    } catch (error) {
      throw new ProcmuxError(
        'ERR_PROCESS_PTY_BACKEND',
        `tmux ${args[0]} could not be run: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    if (result.code === 0) return result.stdout;
    if (saysGone(result) || saysEmpty(result) || EXITED.test(result.stderr)) return '';
    throw new ProcmuxError('ERR_PROCESS_PTY_BACKEND', `tmux ${args[0]} failed: ${failureWords(result)}`);
  }

  /** Like run(), but a failure is ERR_PROCESS_PTY_BACKEND naming the command and tmux's words. */
  async must(args: readonly string[], input?: Buffer): Promise<string> {
    const result = await this.run(args, input);
    if (result.code !== 0) {
      throw new ProcmuxError('ERR_PROCESS_PTY_BACKEND', `tmux ${args[0]} failed: ${failureWords(result)}`);
    }
    return result.stdout;
  }
}

/** execFile on this machine with `env`, a 10 s bound and 4 MiB of output at most. */
function localExec(env: Record<string, string>): TmuxExec {
  return (file, args, input) =>
    new Promise((resolve) => {
      const child = execFile(
        file,
        [...args],
        { env, encoding: 'utf8', timeout: 10_000, maxBuffer: 4 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ stdout, stderr, code });
        },
      );
      child.stdin?.on('error', () => {});
      if (input !== undefined) child.stdin?.end(input);
      else child.stdin?.end();
    });
}

/** Single-quotes a word for sh. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

// What the sandbox refused, read from what the program printed. The kernel tells a program
// (EROFS, EACCES, ESRCH, EPERM) but not procmux, so the host recognises the error lines tools
// print and keeps only those the sandbox caused: a path outside every writable one, a hidden
// path, a pid that lives on the host. The proxy's refusals are reported directly (proxy.ts).
import { dirname, isAbsolute, resolve } from 'node:path';
import type { SandboxPolicy } from './policy.js';

export type SandboxViolationKind = 'write' | 'read' | 'network' | 'signal' | 'terminal-injection';

export interface SandboxViolation {
  kind: SandboxViolationKind;
  /** The path, `host[:port]`, pid, or ioctl refused. */
  target: string;
  /** Epoch milliseconds when it was seen. */
  at: number;
}

/** The line a reply ends with, e.g. `sandbox: write to /etc/hosts refused`. */
export function violationLine(v: Pick<SandboxViolation, 'kind' | 'target'>): string {
  switch (v.kind) {
    case 'write':
      return `sandbox: write to ${v.target} refused`;
    case 'read':
      return `sandbox: read of ${v.target} refused`;
    case 'network':
      return `sandbox: connection to ${v.target} refused`;
    case 'signal':
      return `sandbox: signal to pid ${v.target} refused (host processes are outside the sandbox)`;
    case 'terminal-injection':
      return `sandbox: terminal input injection (${v.target}) refused`;
  }
}

export interface ScanEffects {
  /** Whether a pid lives on the host (then a "No such process" inside was the pid namespace). */
  hostPidExists(pid: number): boolean;
  /** The host path a path names (symlinks resolved), or the path itself when it cannot. */
  realPath(path: string): string;
}

export interface ScanContext {
  policy: SandboxPolicy;
  cwd: string;
  /** What the session was asked to run and typed so far (a TIOCSTI attempt is seen there). */
  commandText(): string;
}

export const ERROR_WORDS = /Read-only|denied|No such process|not permitted|EROFS|EACCES|EPERM|Errno 1\]/;
const ERRORS = 'Read-only file system|Permission denied|No such process|Operation not permitted';
const PATH_BEFORE = new RegExp(`(?:^|: |\\s)([^:\\s'‘"][^:'’"]*?): (?:${ERRORS})`);
const QUOTED = /['‘"]([^'’"\n]+)['’"]/;
// CSI/OSC sequences and carriage returns a terminal session's lines carry.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\r/g;

/** Violations in one line of output, none when the line is not an error the sandbox caused. */
export function scanLine(
  rawLine: string,
  context: ScanContext,
  effects: ScanEffects,
  at: number,
): SandboxViolation[] {
  // Most output is no error at all: one cheap test before any regex (a flood stays a flood).
  if (!ERROR_WORDS.test(rawLine)) return [];
  const line = rawLine.replace(ESCAPES, '');
  const found: SandboxViolation[] = [];
  const kill = /kill: \(?(\d+)\)?\s*[-:]\s*No such process/.exec(line);
  if (kill) {
    const pid = Number(kill[1]);
    if (effects.hostPidExists(pid)) found.push({ kind: 'signal', target: String(pid), at });
    return found;
  }
  const path = pathIn(line);
  if (/Read-only file system|EROFS/i.test(line) && path !== undefined) {
    found.push({
      kind: 'write',
      target: describeWrite(resolve(context.cwd, path), context.policy, effects),
      at,
    });
  } else if (/Permission denied|EACCES/.test(line) && path !== undefined) {
    const absolute = resolve(context.cwd, path);
    if (hidden(absolute, context.policy)) found.push({ kind: 'read', target: absolute, at });
  } else if (/Operation not permitted|\[Errno 1\]|EPERM/.test(line)) {
    const ioctl = /TIOCSTI|TIOCLINUX|0x5412|0x541c|21522|21532/i.exec(context.commandText());
    if (ioctl) found.push({ kind: 'terminal-injection', target: ioctlName(ioctl[0]), at });
  }
  return found;
}

function pathIn(line: string): string | undefined {
  const quoted = QUOTED.exec(line)?.[1];
  if (quoted !== undefined && (isAbsolute(quoted) || quoted.includes('/') || !quoted.includes(' ')))
    return quoted;
  return PATH_BEFORE.exec(line)?.[1]?.trim();
}

/** The path written, and where it really points when a symlink led out of a writable path. */
function describeWrite(path: string, policy: SandboxPolicy, effects: ScanEffects): string {
  const real = effects.realPath(path);
  return real !== path && !within(real, policy.write) ? `${path} (-> ${real})` : path;
}

function hidden(path: string, policy: SandboxPolicy): boolean {
  return within(path, [...policy.denyRead, '/proc/1']);
}

function within(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`));
}

function ioctlName(matched: string): string {
  return /TIOCLINUX|0x541c|21532/i.test(matched) ? 'TIOCLINUX' : 'TIOCSTI';
}

/** Resolves as far as the file system allows: a missing last part keeps its resolved parent. */
export function hostRealPath(realpath: (p: string) => string): (path: string) => string {
  return (path) => {
    try {
      return realpath(path);
    } catch {
      try {
        return resolve(realpath(dirname(path)), path.slice(dirname(path).length + 1));
      } catch {
        return path;
      }
    }
  };
}

/**
 * Splits output into lines for `scanLine`, holding a partial line until its end (at most 4 KiB
 * of it: a longer line is scanned as is).
 */
export class LineScanner {
  #partial = '';
  /** `onLine` sees only lines `interesting` matches (default: every line). */
  constructor(
    readonly onLine: (line: string) => void,
    readonly interesting: RegExp = /[\s\S]/,
  ) {}

  feed(chunk: string): void {
    // A flood with no error word anywhere costs one search, not a split and a test per line.
    const text = this.#partial + chunk;
    if (!this.interesting.test(text)) {
      const end = text.lastIndexOf('\n');
      this.#partial = end === -1 ? text : text.slice(end + 1);
      if (this.#partial.length > 4096) this.#partial = this.#partial.slice(-4096);
      return;
    }
    const lines = text.split('\n');
    this.#partial = lines.pop() ?? '';
    if (this.#partial.length > 4096) {
      lines.push(this.#partial);
      this.#partial = '';
    }
    for (const line of lines) this.onLine(line);
  }

  flush(): void {
    if (this.#partial !== '') this.onLine(this.#partial);
    this.#partial = '';
  }
}

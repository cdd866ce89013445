// What the sandbox refused, read from what the program printed. The kernel tells a program
// (EROFS, EACCES, ESRCH, EPERM) but not procmux, so the host recognises the error lines tools
// print and keeps only those the sandbox caused: a path outside every writable one, a hidden
// path, a pid that lives on the host. The proxy's refusals are reported directly (proxy.ts).
import { dirname, isAbsolute, resolve } from 'node:path';
import type { SandboxPolicy } from './policy.js';
import { WordFinder } from './word-finder.js';

export type SandboxViolationKind =
  | 'write'
  | 'read'
  | 'network'
  | 'unix-socket'
  | 'signal'
  | 'terminal-injection';

export interface SandboxViolation {
  kind: SandboxViolationKind;
  /** The path, `host[:port]`, socket path, pid, or ioctl refused. */
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
    case 'unix-socket':
      return `sandbox: connection to unix socket ${v.target} refused`;
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
  /** Whether a path is a unix socket on the host (a program inside may not make one). */
  isSocket?(path: string): boolean;
}

export interface ScanContext {
  policy: SandboxPolicy;
  cwd: string;
  /** What the session was asked to run and typed so far (a TIOCSTI attempt is seen there). */
  commandText(): string;
}

/**
 * Every line scanLine reports holds one of these (its first test), so output without any of
 * them is never looked at line by line (LineScanner). C's strerror, Python, Rust, Ruby and Java
 * print `Permission denied`; Go prints its errno text in lowercase after the path
 * (`open /x: permission denied`), and node after its code (`EACCES: permission denied, open
 * '/x'`): both end in `: permission denied`. `ead-only file system` is either case (libuv's,
 * Go's `read-only file system`). Python's `[Errno 1]` comes with `Operation not permitted`.
 * Java's java.io says `PATH (Permission denied)`: the same words, another place for the path
 * (java.nio's `AccessDeniedException: PATH` holds none, and one more word would cost every
 * byte of every sandboxed session one more pass: not told). Codes alone (node's EROFS, EACCES, EPERM) are not words: the same
 * lines hold the text, and each word is one more pass over the output (~1.5 ms per 64 MiB for
 * a word absent from it).
 */
export const REFUSAL_WORDS: readonly string[] = [
  'ead-only file system',
  'Permission denied',
  ': permission denied',
  'No such process',
  'Operation not permitted',
];
const ERRORS =
  '[Rr]ead-only file system|Permission denied|permission denied|No such process|Operation not permitted';
const PATH_BEFORE = new RegExp(`(?:^|: |\\s)([^:\\s'‘"\`][^:'’"\`]*?): (?:${ERRORS})`);
const QUOTED = /['‘"`]([^'’"`\n]+)['’"`]/;
// Java: `java.io.FileNotFoundException: /a b/c (Read-only file system)`; checked before
// quotes (its `Exception in thread "main"`).
const JAVA = /Exception: (\/.*?) \((?:[Rr]ead-only file system|Permission denied)\)$/;
// CSI/OSC sequences and carriage returns a terminal session's lines carry.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\r/g;

/** Violations in one line of output, none when the line is not an error the sandbox caused. */
export function scanLine(
  rawLine: string,
  context: ScanContext,
  effects: ScanEffects,
  at: number,
): SandboxViolation[] {
  // Most output is no error at all: cheap tests before any regex (a flood stays a flood).
  if (!REFUSAL_WORDS.some((word) => rawLine.includes(word))) return [];
  const line = rawLine.replace(ESCAPES, '');
  const found: SandboxViolation[] = [];
  const kill = /kill: \(?(\d+)\)?\s*[-:]\s*No such process/.exec(line);
  if (kill) {
    const pid = Number(kill[1]);
    if (effects.hostPidExists(pid)) found.push({ kind: 'signal', target: String(pid), at });
    return found;
  }
  const path = pathIn(line);
  if (/read-only file system/i.test(line) && path !== undefined) {
    const write = refusedWrite(resolve(context.cwd, path), context.policy, effects);
    if (write !== undefined) found.push({ kind: 'write', target: write, at });
  } else if (/Permission denied|: permission denied/.test(line) && path !== undefined) {
    const absolute = resolve(context.cwd, path);
    if (hidden(absolute, context.policy)) found.push({ kind: 'read', target: absolute, at });
  } else if (/Operation not permitted|EPERM/.test(line)) {
    // A unix socket the program could not make to connect to a host's socket (tmux: `error
    // connecting to PATH (Operation not permitted)`); one that names no socket is not told.
    const socket = socketIn(line, context.cwd, effects);
    if (socket !== undefined) {
      found.push({ kind: 'unix-socket', target: socket, at });
      return found;
    }
    const ioctl = /TIOCSTI|TIOCLINUX|0x5412|0x541c|21522|21532/i.exec(context.commandText());
    if (ioctl) found.push({ kind: 'terminal-injection', target: ioctlName(ioctl[0]), at });
  }
  return found;
}

const PATH_TOKEN = /(?:^|[\s('"`‘])(\/[^\s()'"`’]+)/g;

function socketIn(line: string, cwd: string, effects: ScanEffects): string | undefined {
  if (effects.isSocket === undefined) return undefined;
  for (const match of line.matchAll(PATH_TOKEN)) {
    const path = resolve(cwd, match[1]!.replace(/[:,.]$/, ''));
    if (effects.isSocket(path)) return path;
  }
  return undefined;
}

function pathIn(line: string): string | undefined {
  const java = JAVA.exec(line)?.[1];
  if (java !== undefined) return java;
  const quoted = QUOTED.exec(line)?.[1];
  if (quoted !== undefined && (isAbsolute(quoted) || quoted.includes('/') || !quoted.includes(' ')))
    return quoted;
  const before = PATH_BEFORE.exec(line)?.[1]?.trim();
  // dash says `sh: 1: cannot create /etc/x: Read-only file system`: the path is what follows
  // the words, from its first slash after a space.
  const words = before?.indexOf(' /') ?? -1;
  return before !== undefined && !isAbsolute(before) && words !== -1 ? before.slice(words + 1) : before;
}

/**
 * The path written, and where it really points when a symlink led out of a writable path;
 * undefined when both are writable (the sandbox did not refuse it: a line that only names a
 * workspace file beside the words is no report).
 */
function refusedWrite(path: string, policy: SandboxPolicy, effects: ScanEffects): string | undefined {
  const real = effects.realPath(path);
  if (!within(real, policy.write)) return real !== path ? `${path} (-> ${real})` : path;
  return within(path, policy.write) ? undefined : path;
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
 * Splits output into lines for `scanLine`, handing on only those that may hold one of `words`
 * (found by WordFinder: most output is never split into lines nor searched by a regex). A
 * partial line is held until its end, at most 4 KiB of it: a longer line with a word in it is
 * handed on as it is.
 */
export class LineScanner {
  readonly #finder: WordFinder;
  /** The longest word less one: what of the previous text a word can start in. */
  readonly #overlap: number;
  #partial = '';
  /** Whether the partial line holds a candidate (it is handed on once it ends). */
  #partialHit = false;

  constructor(
    readonly onLine: (line: string) => void,
    readonly words: readonly string[],
  ) {
    this.#finder = new WordFinder(words);
    this.#overlap = Math.max(0, ...words.map((w) => w.length - 1));
  }

  feed(chunk: string): void {
    if (chunk === '') return;
    const hits = this.#finder.find(chunk);
    // A word split between the previous chunk and this one.
    if (!this.#partialHit && this.#partial !== '') {
      const seam = this.#partial.slice(-this.#overlap) + chunk.slice(0, this.#overlap);
      this.#partialHit = this.words.some((word) => seam.includes(word));
    }
    const firstEnd = chunk.indexOf('\n');
    if (firstEnd === -1) {
      const hit = this.#partialHit || hits.length > 0;
      // A long run without a line end or a word: only its end can matter (a copy spared).
      if (!hit && chunk.length >= 4096) this.#hold(chunk.slice(-4096), false);
      else this.#hold(this.#partial + chunk, hit);
      return;
    }
    if (this.#partialHit || (hits.length > 0 && hits[0]! < firstEnd))
      this.onLine(this.#partial + chunk.slice(0, firstEnd));
    const lastEnd = chunk.lastIndexOf('\n');
    let done = firstEnd;
    for (const at of hits) {
      if (at <= done) continue;
      if (at > lastEnd) break;
      const end = chunk.indexOf('\n', at);
      this.onLine(chunk.slice(chunk.lastIndexOf('\n', at) + 1, end));
      done = end;
    }
    this.#partial = '';
    this.#hold(chunk.slice(lastEnd + 1), hits.length > 0 && hits[hits.length - 1]! > lastEnd);
  }

  flush(): void {
    if (this.#partialHit) this.onLine(this.#partial);
    this.#partial = '';
    this.#partialHit = false;
  }

  #hold(partial: string, hit: boolean): void {
    this.#partialHit = hit;
    if (partial.length <= 4096) this.#partial = partial;
    else if (hit) {
      this.onLine(partial);
      this.#partial = '';
      this.#partialHit = false;
    } else this.#partial = partial.slice(-4096);
  }
}

// The slice of node-pty's native Unix module this package drives directly. Both node-pty and
// @homebridge/node-pty-prebuilt-multiarch expose it as `native` (not a public API upstream, so
// the loader checks its shape before trusting it).

/** What `pty.fork` returns: the master descriptor, the child's pid and the slave's path. */
export interface NativePtyProcess {
  fd: number;
  pid: number;
  /** Path of the slave device, e.g. /dev/pts/7. */
  pty: string;
}

/** node-pty's native Unix API (`src/unix/pty.cc`). */
export interface PtyNativeModule {
  fork(
    file: string,
    args: string[],
    env: string[],
    cwd: string,
    cols: number,
    rows: number,
    uid: number,
    gid: number,
    utf8: boolean,
    helperPath: string,
    onExit: (code: number, signal: number) => void,
  ): NativePtyProcess;
  resize(fd: number, cols: number, rows: number): void;
  /** openpty(3) without a child: both ends open in this process, non-blocking, inheritable. */
  open?(cols: number, rows: number): { master: number; slave: number; pty: string };
}

/** The package names a backend can come from. */
export type PtyBackendName = 'node-pty' | '@homebridge/node-pty-prebuilt-multiarch';

/** A loaded native PTY module, ready to fork. */
export interface PtyBackend {
  readonly name: PtyBackendName;
  readonly native: PtyNativeModule;
  /** node-pty's spawn-helper (used on macOS only); '' where none is needed or found. */
  readonly helperPath: string;
}

/** True when `value` has the native fork/resize functions this package calls. */
export function isPtyNativeModule(value: unknown): value is PtyNativeModule {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Record<'fork' | 'resize', unknown>>;
  return typeof candidate.fork === 'function' && typeof candidate.resize === 'function';
}

// sandbox-launch (native/sandbox-launch.c) runs on the host's side of every sandboxed start,
// outside every sandbox: no sandbox may be able to change what it runs. The package's own
// file can be changed by one (procmux installed in a workspace its sandboxes write, or a pnpm
// store hard-linking the same inode into one), so the host copies it once into a file with no
// name (O_TMPFILE), keeps only a read-only descriptor to it, and spawns it as
// /proc/<host pid>/fd/N: the same bytes for the host's whole life, and a path no sandbox can
// name (each has its own pid namespace and /proc). Where that cannot be had (no O_TMPFILE on
// the temp dir's file system, a temp dir mounted noexec), the outer shell does the job.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { registerSelfContainedLauncher } from '@procmux/shell-wrap';
import { builtNativeHelper } from './native.js';

/** open(2)'s O_TMPFILE: __O_TMPFILE (the same on x64 and arm64) with the arch's O_DIRECTORY. */
const O_TMPFILE = 0o20000000 | constants.O_DIRECTORY;

/** What heldLaunchFile() does, injected so its refusals are tested. */
export interface LaunchFileEffects {
  built(): string | undefined;
  read(path: string): Buffer;
  /** An unnamed file in the temp dir, opened for writing (throws where there is none). */
  create(): number;
  write(fd: number, bytes: Buffer): void;
  reopenReadOnly(fd: number): number;
  close(fd: number): void;
  /** The exit status of running `path` with no arguments (sandbox-launch's usage: 2). */
  probe(path: string): number | null;
  pid: number;
}

export const nodeLaunchFileEffects: LaunchFileEffects = {
  built: () => builtNativeHelper('sandbox-launch', process.arch),
  read: (path) => readFileSync(path),
  create: () => openSync(tmpdir(), O_TMPFILE | constants.O_RDWR, 0o700),
  write: (fd, bytes) => {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
  },
  reopenReadOnly: (fd) => openSync(`/proc/self/fd/${fd}`, 'r'),
  close: closeSync,
  probe: (path) => spawnSync(path, [], { stdio: 'ignore' }).status,
  pid: process.pid,
};

/** sandbox-launch's usage exit: it ran, and said it was given nothing. */
const USAGE_EXIT = 2;

let held: string | null | undefined;

/**
 * The path to spawn sandbox-launch by (`/proc/<pid>/fd/N`), registered with shell-wrap as a
 * launcher that closes descriptors and joins its cgroup itself; undefined where it was not
 * built or cannot be held. Made once per process.
 */
export function heldLaunchFile(fx: LaunchFileEffects = nodeLaunchFileEffects): string | undefined {
  if (held === undefined) held = holdLaunchFile(fx) ?? null;
  return held ?? undefined;
}

export function holdLaunchFile(fx: LaunchFileEffects): string | undefined {
  const built = fx.built();
  if (built === undefined) return undefined;
  let writable: number | undefined;
  let readOnly: number | undefined;
  try {
    const bytes = fx.read(built);
    writable = fx.create();
    fx.write(writable, bytes);
    readOnly = fx.reopenReadOnly(writable);
    // Closed before any exec: a file open for writing cannot be run (ETXTBSY).
    fx.close(writable);
    writable = undefined;
    const path = `/proc/${fx.pid}/fd/${readOnly}`;
    if (fx.probe(path) !== USAGE_EXIT) {
      fx.close(readOnly);
      return undefined;
    }
    registerSelfContainedLauncher(path);
    return path;
  } catch {
    if (writable !== undefined) fx.close(writable);
    if (readOnly !== undefined) fx.close(readOnly);
    return undefined;
  }
}

import { randomBytes } from 'node:crypto';
import { TREE_MARKER_ENV } from './limits.js';
import { invalidOption } from './option-checks.js';

let counter = 0;
// Drawn once: with the counter it keeps markers unique across hosts that share a pid (pid
// namespaces) and across restarts. A draw per spawn cost about 0.1 ms of every start.
let hostRandom: string | undefined;

/**
 * A fresh value for TREE_MARKER_ENV: `<host pid>-<n>-<random>`. The host-pid prefix lets a
 * test (or a host) find every process it started, including setsid escapees.
 */
export function createTreeMarker(): string {
  counter += 1;
  hostRandom ??= randomBytes(4).toString('hex');
  return `${process.pid}-${counter}-${hostRandom}`;
}

/** The child's environment with a new tree marker added (the caller's own marker is replaced). */
export function withTreeMarker(
  env: Readonly<Record<string, string | undefined>>,
  marker = createTreeMarker(),
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  out[TREE_MARKER_ENV] = marker;
  return out;
}

/**
 * A caller-given tree marker (PtySpawnOptions.treeMarker), checked: 1 to 128 characters of
 * `[A-Za-z0-9._-]`, so it is safe in an environment, a command line and a /proc match.
 * Undefined means "mint a fresh one". Throws ERR_INVALID_OPTION otherwise.
 */
export function resolveTreeMarker(value: unknown): string {
  if (value === undefined) return createTreeMarker();
  if (typeof value === 'string' && /^[A-Za-z0-9._-]{1,128}$/.test(value)) return value;
  throw invalidOption('treeMarker', '1 to 128 characters of A-Z a-z 0-9 . _ -', { value });
}

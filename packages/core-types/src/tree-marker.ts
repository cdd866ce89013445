import { randomBytes } from 'node:crypto';
import { TREE_MARKER_ENV } from './limits.js';

let counter = 0;

/**
 * A fresh value for TREE_MARKER_ENV: `<host pid>-<n>-<random>`. The host-pid prefix lets a
 * test (or a host) find every process it started, including setsid escapees.
 */
export function createTreeMarker(): string {
  counter += 1;
  return `${process.pid}-${counter}-${randomBytes(4).toString('hex')}`;
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

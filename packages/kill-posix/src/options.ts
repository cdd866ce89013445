import { integerOption, invalidOption, nonEmptyString } from '@procmux/core-types';

export { resolveGraceMs, validateOptionsObject as validateOptions } from '@procmux/core-types';

// kill(2) takes an int; anything larger cannot name a process.
const MAX_PID = 0x7fff_ffff;

/**
 * The pid a tree kill may act on: a positive integer that is neither init nor this process
 * (killing either would take the host down with the tree).
 */
export function validatePid(pid: unknown, selfPid: number): number {
  const checked = integerOption('pid', pid, { min: 1, max: MAX_PID, required: true });
  if (checked === 1 || checked === selfPid) {
    throw invalidOption('pid', `other than 1 (init) and this process's own pid ${selfPid}`, { value: pid });
  }
  return checked;
}

/** An explicit tree marker: a non-empty string that can be an environment value. */
export function validateMarker(value: unknown): string | undefined {
  return nonEmptyString('marker', value);
}

import { integerOption, invalidOption } from '@procmux/core-types';

export { resolveGraceMs, validateOptionsObject as validateOptions } from '@procmux/core-types';

// Node's process.kill takes an int32; anything larger cannot name a process.
const MAX_PID = 0x7fff_ffff;

/** The pid a tree kill may act on: a positive integer that is not this process. */
export function validatePid(pid: unknown, selfPid: number): number {
  const checked = integerOption('pid', pid, { min: 1, max: MAX_PID, required: true });
  if (checked === selfPid)
    throw invalidOption('pid', `other than this process's own pid ${selfPid}`, { value: pid });
  return checked;
}

// The namespace's own init (pid 1 inside) and the sleep it runs between reaps are not what a
// run left behind: a one_shot's leftover list skips them, else every one_shot in a pid
// namespace would report "Ended with it: sh, sleep" (measured: 5 of 20 runs did).
import type { ProcRead } from './program-pid.js';
import { INIT_HOLD_COMMAND } from './wrap.js';

/** True for the namespace's init, or its hold sleep (in a child pid namespace, that argv). */
export function isNamespaceHold(pid: number, read: ProcRead): boolean {
  const nspid = /^NSpid:\s+(.+)$/m
    .exec(read(`/proc/${pid}/status`) ?? '')?.[1]
    ?.trim()
    .split(/\s+/);
  if (nspid === undefined || nspid.length < 2) return false;
  if (nspid[nspid.length - 1] === '1') return true;
  const argv = read(`/proc/${pid}/cmdline`)
    ?.split('\0')
    .filter((arg) => arg !== '');
  return argv?.join(' ') === INIT_HOLD_COMMAND;
}

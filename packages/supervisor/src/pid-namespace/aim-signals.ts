// A pid-namespace run's signals go to the program, not to its waiter (which blocks INT and
// TERM, and whose death would end the namespace without the program seeing the signal).
import { readFileSync } from 'node:fs';
import type { ProcessAdapter, SignalName } from '@procmux/core-types';
import { namespacedProgramPid, type ProcRead } from './program-pid.js';

export interface AimEffects {
  read: ProcRead;
  kill(pid: number, name: SignalName): void;
}

const nodeEffects: AimEffects = {
  read: (path) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
  kill: (pid, name) => process.kill(pid, name),
};

/**
 * Makes `adapter.signal` signal the program inside the namespace; once it is gone (or before
 * it started) the adapter's own signal (the waiter) is used. Returns the same adapter.
 */
export function aimSignalsAtProgram<A extends ProcessAdapter>(adapter: A, fx: AimEffects = nodeEffects): A {
  const own = adapter.signal?.bind(adapter);
  adapter.signal = async (name: SignalName) => {
    const program = adapter.pid === undefined ? undefined : namespacedProgramPid(adapter.pid, fx.read);
    if (program === undefined) {
      if (own) return own(name);
      if (adapter.pid !== undefined) fx.kill(adapter.pid, name);
      return;
    }
    try {
      fx.kill(program, name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  };
  return adapter;
}

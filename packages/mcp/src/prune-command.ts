import { isProcmuxError } from '@procmux/core-types';
import type { CliProcess } from './cli-process.js';
import { prunePersisted } from './persistence.js';
import { pruneGone } from './prune-gone.js';
import { resolveStateDir } from './state-dir.js';

/** `procmux sessions prune`: prints what it ended; 2 when it cannot run. */
export async function runPrune(
  command: { cwd: string; stateDir: string | undefined; gone?: boolean },
  proc: Pick<CliProcess, 'stdout' | 'stderr' | 'env'>,
): Promise<number> {
  try {
    if (command.gone) {
      for (const line of await pruneGone(proc.env)) proc.stdout.write(`procmux: ${line}\n`);
      return 0;
    }
    const dir = resolveStateDir(command.cwd, command.stateDir, proc.env);
    proc.stdout.write(`procmux: ${await prunePersisted(dir, command.cwd)}\n`);
    return 0;
  } catch (error) {
    if (!isProcmuxError(error)) throw error;
    proc.stderr.write(`procmux: ${error.message}\n`);
    return 2;
  }
}

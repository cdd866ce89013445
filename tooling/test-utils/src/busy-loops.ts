// Load for tests that must hold on a busy machine: CPU-bound children the test owns and ends.
import { spawn } from 'node:child_process';
import { trackPid } from './leaks.js';

export interface BusyLoops {
  readonly pids: readonly number[];
  /** Kills every loop and resolves once each has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `count` node processes that spin forever (one core each), tracked for the leak check.
 * Call `stop()` in teardown, before the leak check runs.
 */
export function startBusyLoops(count: number): BusyLoops {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  for (const child of children) trackPid(child.pid);
  return {
    pids: children.map((child) => child.pid!),
    async stop() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}

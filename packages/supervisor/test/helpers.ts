import type { Logger, ManagedRun } from '@procmux/core-types';
import { rejectionOf, trackPid } from '@procmux/test-utils';
import { afterEach } from 'vitest';
import type { ProcessSupervisor, SpawnOptions } from '../src/index.js';

export interface LoggedWarning {
  message: string;
  fields: Readonly<Record<string, unknown>> | undefined;
}

/** A logger that keeps what it is told, for assertions. */
export function recordingLogger(): { logger: Logger; warnings: LoggedWarning[] } {
  const warnings: LoggedWarning[] = [];
  return {
    warnings,
    logger: {
      warn(message, fields) {
        warnings.push({ message, fields });
      },
    },
  };
}

/** The error a promise rejects with; fails when it fulfils. */
export const rejection = rejectionOf;

/**
 * Registers an afterEach that force-ends every run the test tracked and waits for it, so a
 * test that fails midway leaves nothing running into the next. Returns `track(run)`, which
 * hands the run back. Call once, at the top of a test file.
 */
export function cancelRunsAfterEach(): (run: ManagedRun) => ManagedRun {
  const runs: ManagedRun[] = [];
  afterEach(async () => {
    for (const run of runs.splice(0)) {
      run.cancel();
      await run.wait().catch(() => {});
    }
  });
  return (run) => {
    runs.push(run);
    return run;
  };
}

/**
 * Spawns through `supervisor`, hands the run to `track` (see cancelRunsAfterEach) and to the
 * leak check, and collects its stdout: `seen()` is everything printed so far.
 */
export async function spawnCollecting(
  supervisor: ProcessSupervisor,
  track: (run: ManagedRun) => ManagedRun,
  options: SpawnOptions,
): Promise<{ run: ManagedRun; seen: () => string }> {
  let text = '';
  const run = track(await supervisor.spawn({ ...options, onStdout: (chunk) => (text += chunk) }));
  trackPid(run.pid);
  return { run, seen: () => text };
}

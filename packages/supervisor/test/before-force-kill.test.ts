// SpawnOptions.beforeForceKill: the caller's graceful step (a terminal hang-up) runs before
// the tree kill of a timeout or cancel, with the reason already recorded.
import type { ManagedRun, TerminationReason } from '@procmux/core-types';
import { assertNoLeakedProcesses, isAlive } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { ProcessSupervisor } from '../src/index.js';
import { recordingLogger } from './helpers.js';

afterAll(async () => {
  await assertNoLeakedProcesses();
});

describe.skipIf(process.platform === 'win32')('beforeForceKill', () => {
  it('runs with the reason first; a process it ends is reported as the timeout that ended it', async () => {
    const seen: Array<{ reason: TerminationReason; alive: boolean }> = [];
    let run: ManagedRun | undefined;
    const supervisor = new ProcessSupervisor({ logger: recordingLogger().logger });
    run = await supervisor.spawn({
      file: 'sleep',
      args: ['30'],
      timeoutMs: 300,
      beforeForceKill: async (reason) => {
        seen.push({ reason, alive: isAlive(run!.pid!) });
        process.kill(run!.pid!, 'SIGUSR1');
        await run!.wait();
      },
    });
    const exit = await run.wait();
    expect(seen).toEqual([{ reason: 'overall-timeout', alive: true }]);
    expect(exit).toMatchObject({ reason: 'overall-timeout', timedOut: true, signal: 'SIGUSR1' });
  });

  it('the tree kill follows when the step leaves the process running, or throws', async () => {
    const { logger, warnings } = recordingLogger();
    const supervisor = new ProcessSupervisor({ logger });
    const run = await supervisor.spawn({
      file: 'sleep',
      args: ['30'],
      noOutputTimeoutMs: 200,
      beforeForceKill: () => {
        throw new Error('no terminal to hang up');
      },
    });
    const exit = await run.wait();
    expect(exit).toMatchObject({ reason: 'no-output-timeout', signal: 'SIGTERM' });
    expect(warnings.map((w) => w.message)).toContain('procmux: the step before the force kill failed');
  });

  it('is refused when it is not a function', async () => {
    const supervisor = new ProcessSupervisor({ logger: recordingLogger().logger });
    await expect(
      supervisor.spawn({ file: 'true', beforeForceKill: 'hang up' as unknown as () => void }),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
  });
});

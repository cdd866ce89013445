import type { ProcessAdapter, SignalName } from '@procmux/core-types';
import { assertNoLeakedProcesses, rejectsWith } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { ProcessSupervisor } from '../src/index.js';
import { cancelRunsAfterEach } from './helpers.js';

const supervisor = new ProcessSupervisor({ logger: { warn: () => {} } });
const track = cancelRunsAfterEach();

afterAll(async () => {
  await supervisor.dispose();
  await assertNoLeakedProcesses();
});

describe('ManagedRun.signal', () => {
  it('sends one signal to the process, which ends by it', async () => {
    const run = track(await supervisor.spawn({ file: 'sleep', args: ['30'], mode: 'pipe' }));
    await run.signal('SIGTERM');
    const exit = await run.wait();
    expect(exit.signal).toBe('SIGTERM');
    expect(exit.exitCode).toBeNull();
  });

  it('is no error once the process is gone', async () => {
    const run = track(await supervisor.spawn({ file: 'true', mode: 'pipe' }));
    await run.wait();
    await expect(run.signal('SIGTERM')).resolves.toBeUndefined();
  });

  it("uses the adapter's own signal() where it has one (a host backend's process)", async () => {
    const sent: SignalName[] = [];
    let exit!: (code: number) => void;
    const adapter: ProcessAdapter = {
      pid: undefined,
      stdioMode: 'pipe',
      stdin: undefined,
      onStdout: () => () => {},
      onStderr: () => () => {},
      wait: () => new Promise((resolve) => (exit = (code) => resolve({ code, signal: null }))),
      kill: async () => exit(137),
      signal: async (name) => {
        sent.push(name);
        exit(0);
      },
      dispose: () => {},
    };
    const run = track(await supervisor.spawn({ adapterFactory: async () => adapter }));
    await run.signal('SIGINT');
    expect(sent).toEqual(['SIGINT']);
    expect((await run.wait()).exitCode).toBe(0);
  });

  it('is ERR_PROCESS_STATE for a run without a pid and without its own signal()', async () => {
    let exit!: () => void;
    const adapter: ProcessAdapter = {
      pid: undefined,
      stdioMode: 'pipe',
      stdin: undefined,
      onStdout: () => () => {},
      onStderr: () => () => {},
      wait: () => new Promise((resolve) => (exit = () => resolve({ code: 0, signal: null }))),
      kill: async () => exit(),
      dispose: () => {},
    };
    const run = track(await supervisor.spawn({ adapterFactory: async () => adapter }));
    await rejectsWith(run.signal('SIGTERM'), 'ERR_PROCESS_STATE');
  });
});

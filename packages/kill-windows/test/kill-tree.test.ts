import { isProcmuxError } from '@procmux/core-types';
import { checkLeaksAfterAll } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { killProcessTree } from '../src/index.js';
import { KILL_SETTLE_MS, killTreeWith } from '../src/kill-tree.js';
import type { ExecResult, WindowsKillEffects } from '../src/platform.js';

const PID = 4242;
const TASKKILL = 'C:\\Windows\\System32\\taskkill.exe';

interface Script {
  /** taskkill /T: exit code, and whether the process then exits (after `exitAfterMs`). */
  soft?: { code: number; exits?: boolean; exitAfterMs?: number; stdout?: string };
  /** taskkill /T /F: exit code, and whether the process then exits. */
  hard?: { code: number; exits?: boolean };
  /** The process is gone from the start. */
  gone?: boolean;
}

// A simulated Windows: taskkill answers as scripted, the clock moves only when we sleep.
function fakeWindows(script: Script, env: Record<string, string> = {}) {
  const world = { calls: [] as string[], clock: 0, alive: !script.gone, exitAt: Number.POSITIVE_INFINITY };
  const effects: WindowsKillEffects = {
    selfPid: 1,
    env,
    async exec(file, args): Promise<ExecResult> {
      world.calls.push(`${world.clock} ${[file, ...args].join(' ')}`);
      const force = args.includes('/F');
      if (!world.alive) return { code: 128, stdout: '', stderr: `ERROR: The process "${PID}" not found.` };
      const step = force ? script.hard : script.soft;
      if (step === undefined) throw new Error(`unexpected taskkill ${args.join(' ')}`);
      if (step.exits) {
        const delay = force ? 0 : (script.soft?.exitAfterMs ?? 0);
        world.exitAt = Math.min(world.exitAt, world.clock + delay);
        if (delay === 0) world.alive = false;
      }
      return { code: step.code, stdout: '', stderr: '' };
    },
    isAlive: (pid) => {
      expect(pid).toBe(PID);
      if (world.clock >= world.exitAt) world.alive = false;
      return world.alive;
    },
    sleep: async (ms) => {
      world.clock += ms;
    },
    now: () => world.clock,
  };
  return { world, effects };
}

describe('killProcessTree on Windows (simulated taskkill)', () => {
  it('stops after the soft kill when the process exits within the grace', async () => {
    const { world, effects } = fakeWindows({ soft: { code: 0, exits: true, exitAfterMs: 250 } });
    const report = await killTreeWith(PID, { graceMs: 3000 }, effects);
    expect(report).toEqual({ signalled: [PID], survivors: [] });
    expect(world.calls).toEqual([`0 ${TASKKILL} /PID 4242 /T`]);
    expect(world.clock).toBeGreaterThanOrEqual(250);
    expect(world.clock).toBeLessThan(3000);
  });

  it('forces the tree after the grace when the process ignores the soft kill', async () => {
    const { world, effects } = fakeWindows({ soft: { code: 0 }, hard: { code: 0, exits: true } });
    const report = await killTreeWith(PID, { graceMs: 1500 }, effects);
    expect(report).toEqual({ signalled: [PID], survivors: [] });
    expect(world.calls).toEqual([`0 ${TASKKILL} /PID 4242 /T`, `1500 ${TASKKILL} /PID 4242 /T /F`]);
  });

  it('resolves with nothing signalled when taskkill says the pid is gone (exit code 128)', async () => {
    const { world, effects } = fakeWindows({ gone: true });
    expect(await killTreeWith(PID, {}, effects)).toEqual({ signalled: [], survivors: [] });
    expect(world.calls).toEqual([`0 ${TASKKILL} /PID 4242 /T`]);
    const zero = fakeWindows({ gone: true });
    expect(await killTreeWith(PID, { graceMs: 0 }, zero.effects)).toEqual({ signalled: [], survivors: [] });
    expect(zero.world.calls).toEqual([`0 ${TASKKILL} /PID 4242 /T /F`]);
  });

  it('reports a survivor when access is denied, after a bounded wait, without throwing', async () => {
    const { world, effects } = fakeWindows({ soft: { code: 1 }, hard: { code: 1 } });
    const report = await killTreeWith(PID, { graceMs: 3000 }, effects);
    expect(report).toEqual({ signalled: [], survivors: [PID] });
    // The refused soft kill asked nothing to stop, so the force came at once.
    expect(world.calls).toEqual([`0 ${TASKKILL} /PID 4242 /T`, `0 ${TASKKILL} /PID 4242 /T /F`]);
    expect(world.clock).toBeGreaterThanOrEqual(KILL_SETTLE_MS);
  });

  it('forces a console program at once when taskkill refuses to close it softly', async () => {
    const { world, effects } = fakeWindows({ soft: { code: 1 }, hard: { code: 0, exits: true } });
    const report = await killTreeWith(PID, { graceMs: 60_000 }, effects);
    expect(report).toEqual({ signalled: [PID], survivors: [] });
    expect(world.calls.map((call) => call.split(' ')[0])).toEqual(['0', '0']);
  });

  it('graceMs 0 runs only the forced kill', async () => {
    const { world, effects } = fakeWindows({ hard: { code: 0, exits: true } });
    expect(await killTreeWith(PID, { graceMs: 0 }, effects)).toEqual({ signalled: [PID], survivors: [] });
    expect(world.calls).toEqual([`0 ${TASKKILL} /PID 4242 /T /F`]);
  });

  it('waits at most 60 s, and refuses a longer or negative grace before running taskkill', async () => {
    const long = fakeWindows({ soft: { code: 0 }, hard: { code: 0, exits: true } });
    await killTreeWith(PID, { graceMs: 60_000 }, long.effects);
    expect(long.world.calls[1]).toBe(`60000 ${TASKKILL} /PID 4242 /T /F`);
    for (const graceMs of [1e9, -5]) {
      const refused = fakeWindows({ hard: { code: 0, exits: true } });
      const error = await killTreeWith(PID, { graceMs }, refused.effects).catch((e: unknown) => e);
      expect((error as { code?: string }).code).toBe('ERR_INVALID_OPTION');
      expect(refused.world.calls).toEqual([]);
    }
  });

  it('treats a process that exited between the grace and the force as killed', async () => {
    const { effects } = fakeWindows({ soft: { code: 0 }, hard: { code: 0 } });
    // Simulate the exit landing just as the forced taskkill looks for it.
    const exec = effects.exec;
    effects.exec = async (file, args) =>
      args.includes('/F') ? { code: 128, stdout: '', stderr: '' } : exec(file, args);
    expect(await killTreeWith(PID, { graceMs: 100 }, effects)).toEqual({ signalled: [PID], survivors: [] });
  });

  it('runs taskkill.exe from SystemRoot, whatever the case of its name', async () => {
    for (const env of [{ SystemRoot: 'D:\\Win' }, { SYSTEMROOT: 'D:\\Win' }] as Record<string, string>[]) {
      const { world, effects } = fakeWindows({ hard: { code: 0, exits: true } }, env);
      await killTreeWith(PID, { graceMs: 0 }, effects);
      expect(world.calls).toEqual(['0 D:\\Win\\System32\\taskkill.exe /PID 4242 /T /F']);
    }
  });

  it('rejects with ERR_PROCESS_UNSUPPORTED when taskkill.exe cannot be started', async () => {
    const { effects } = fakeWindows({});
    effects.exec = () => Promise.reject(Object.assign(new Error('spawn ENOENT'), { code: 'ENOENT' }));
    const error = await killTreeWith(PID, { graceMs: 0 }, effects).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_PROCESS_UNSUPPORTED')).toBe(true);
    expect((error as Error).message).toBe(`could not run ${TASKKILL}, so the tree cannot be killed`);
  });

  it.each([
    ['a pid that is not a positive integer', 0, {}],
    ['a fractional pid', 1.5, {}],
    ['our own pid', 1, {}],
    ['a NaN grace', PID, { graceMs: Number.NaN }],
    ['a string grace', PID, { graceMs: '10' }],
    ['options that are not an object', PID, 'fast'],
  ])('refuses %s with ERR_INVALID_OPTION before running taskkill', async (_what, pid, options) => {
    const { world, effects } = fakeWindows({ soft: { code: 0, exits: true } });
    const error = await killTreeWith(pid, options, effects).catch((e: unknown) => e);
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect(world.calls).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')(
    'refuses to run off Windows, naming the package to use',
    async () => {
      const error = await killProcessTree(PID).catch((e: unknown) => e);
      expect(isProcmuxError(error, 'ERR_PROCESS_UNSUPPORTED')).toBe(true);
      expect((error as Error).message).toContain('@procmux/kill-posix');
    },
  );
});

checkLeaksAfterAll();

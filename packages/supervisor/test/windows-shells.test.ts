// Windows only (tooling/platform-tests.mjs leaves it out elsewhere): cmd and PowerShell
// command lines, ConPTY, Ctrl-C on a console, and taskkill on a console program's tree.
// The same paths are unit-tested on Linux through injected platforms (target.test.ts and
// @procmux/kill-windows); this file is the real thing on the CI's Windows leg.
import type { ManagedRun } from '@procmux/core-types';
import { checkLeaksAfterAll, fixture, isAlive, waitFor } from '@procmux/test-utils';
import { expect, it } from 'vitest';
import { ProcessSupervisor, type SpawnOptions } from '../src/index.js';
import { cancelRunsAfterEach, recordingLogger, spawnCollecting } from './helpers.js';

const track = cancelRunsAfterEach();
const supervisor = new ProcessSupervisor({ logger: recordingLogger().logger, killGraceMs: 500 });

function spawn(options: SpawnOptions): Promise<{ run: ManagedRun; seen: () => string }> {
  return spawnCollecting(supervisor, track, options);
}

it('runs a command line through cmd, quotes and exit code verbatim', async () => {
  const { run } = await spawn({ command: 'echo "a b"& exit /b 3' });
  const exit = await run.wait();
  expect(exit.exitCode).toBe(3);
  expect(exit.stdout.trim()).toBe('"a b"');
});

it('runs a command line through PowerShell when asked', async () => {
  const { run } = await spawn({ command: 'Write-Output ("x" * 3); exit 4', shell: 'powershell' });
  const exit = await run.wait();
  expect(exit.exitCode).toBe(4);
  expect(exit.stdout.trim()).toBe('xxx');
});

it('runs on a ConPTY terminal: the program sees a TTY', async () => {
  const { run } = await spawn({ ...fixture('lines', '1', '0'), mode: 'pty' });
  expect(run.stdioMode).toBe('pty');
  const exit = await run.wait();
  expect(exit.exitCode).toBe(0);
  expect(exit.stdout).toContain('line 1');
});

it('Ctrl-C typed on a ConPTY ends a program that does not handle it', async () => {
  const { run, seen } = await spawn({ ...fixture('prompt-loop'), mode: 'pty' });
  await waitFor(() => seen().includes('>'), 30_000, 'the prompt');
  run.stdin!.write('\x03');
  const exit = await run.wait();
  expect(exit.reason).not.toBe('manual-cancel');
  expect(isAlive(run.pid!)).toBe(false);
});

it('cancel uses taskkill on the tree of a console program that ignores Ctrl-C', async () => {
  const { run, seen } = await spawn(fixture('ignore-term'));
  await waitFor(() => seen().includes('ready'), 30_000, 'the program');
  run.cancel();
  expect((await run.wait()).reason).toBe('manual-cancel');
  expect(isAlive(run.pid!)).toBe(false);
});

checkLeaksAfterAll();

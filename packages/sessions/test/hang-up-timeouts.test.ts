// Every graceful end of a terminal session hangs the terminal up first: a timeout, an idle
// timeout, the lifetime running out — not only kill(). The report still says what ended it.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { disposeAfterEach, isAlive, makeWorkspace, waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSession, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
const track = disposeAfterEach<ProcessSessions>();

async function prompt(s: ProcessSession): Promise<void> {
  await waitFor(async () => /[$#] *$/.test(`${(await s.screen()).trimEnd()} `), 15_000, 'a bash prompt');
}

const BASH = { command: 'bash', args: ['--norc', '--noprofile', '-i'], pty: true } as const;

describe.skipIf(process.platform === 'win32')(
  'terminal sessions hang up before SIGTERM on every graceful end',
  () => {
    it('overall timeout: an idle bash -i dies of SIGHUP (not SIGKILL after the grace), reported as the timeout', async () => {
      const sessions = track(createProcessSessions({ cwd: workspace }));
      const s = await sessions.start({ ...BASH, timeoutMs: 1_500 });
      await prompt(s);
      const outcome = await s.wait({ timeoutMs: 20_000 });
      expect(outcome).toEqual({ exitCode: null, signal: 'SIGHUP', state: 'killed' });
      expect(s.metadata().endReason).toBe('overall-timeout');
      expect(isAlive(s.pid!)).toBe(false);
      // The figure goes to the README; the assertion is on what ended it.
      console.info(`[hang-up] bash -i ended ${s.endedAt! - s.startedAt - 1_500} ms after its timeout`);
    });

    it('idle timeout: the same, reported as the no-output timeout', async () => {
      const sessions = track(createProcessSessions({ cwd: workspace }));
      const s = await sessions.start({ ...BASH, noOutputTimeoutMs: 1_000 });
      const outcome = await s.wait({ timeoutMs: 20_000 });
      expect(outcome).toEqual({ exitCode: null, signal: 'SIGHUP', state: 'killed' });
      expect(s.metadata().endReason).toBe('no-output-timeout');
    });

    it('lifetime: an expired bash -i dies of SIGHUP, reported as expired by its lifetime', async () => {
      const sessions = track(createProcessSessions({ cwd: workspace }));
      const s = await sessions.start({ ...BASH, lifetimeMs: 1_500 });
      await prompt(s);
      // Expiry is swept on access: access until the one past its lifetime ends it.
      await waitFor(
        () => {
          sessions.list();
          return s.state !== 'running';
        },
        20_000,
        'expiry',
      );
      const outcome = await s.wait({ timeoutMs: 20_000 });
      expect(outcome).toEqual({ exitCode: null, signal: 'SIGHUP', state: 'expired' });
      expect(s.metadata().endReason).toBe('lifetime');
    });

    it('vim on a timeout ends cleanly: SIGHUP, its last screen in the log, no swap file left', async () => {
      const dir = join(workspace, 'vim-timeout');
      mkdirSync(dir);
      writeFileSync(join(dir, 'draft.txt'), 'draft\n');
      const sessions = track(createProcessSessions({ cwd: dir }));
      const s = await sessions.start({
        command: 'vim',
        args: ['-N', '-u', 'NONE', 'draft.txt'],
        pty: true,
        timeoutMs: 3_000,
        terminal: { columns: 80, rows: 10 },
      });
      await waitFor(async () => (await s.screen()).includes('"draft.txt"'), 20_000, 'vim');
      // vim holds its swap file while it runs.
      expect(existsSync(join(dir, '.draft.txt.swp'))).toBe(true);
      const outcome = await s.wait({ timeoutMs: 20_000 });
      expect(outcome).toEqual({ exitCode: null, signal: 'SIGHUP', state: 'killed' });
      expect(s.metadata().endReason).toBe('overall-timeout');
      expect(readdirSync(dir)).toEqual(['draft.txt']);
      const log = (await s.log({ offset: 0, limit: 100 })).text.split('\n');
      expect(log.slice(0, 3)).toEqual(['[full-screen vim: its last screen, rendered]', 'draft', '~']);
      expect(log).toContain('[end of full-screen vim]');
    });

    it('a pipe session on a timeout gets no hang-up (there is no terminal): SIGTERM', async () => {
      const sessions = track(createProcessSessions({ cwd: workspace }));
      const s = await sessions.start({ command: 'sleep', args: ['30'], timeoutMs: 500 });
      const outcome = await s.wait({ timeoutMs: 20_000 });
      expect(outcome).toEqual({ exitCode: null, signal: 'SIGTERM', state: 'killed' });
      expect(s.metadata().endReason).toBe('overall-timeout');
    });

    it('a program that ignores SIGHUP still ends on a timeout: the tree kill follows the hang-up', async () => {
      const sessions = track(createProcessSessions({ cwd: workspace }));
      const s = await sessions.start({
        command: 'bash',
        args: ['--norc', '--noprofile', '-c', "trap '' HUP; echo ready; sleep 60 & wait"],
        pty: true,
        timeoutMs: 1_500,
      });
      await waitFor(async () => (await s.screen()).includes('ready'), 15_000, 'ready');
      const outcome = await s.wait({ timeoutMs: 20_000 });
      expect(outcome.state).toBe('killed');
      expect(outcome.signal).not.toBe('SIGHUP');
      expect(s.metadata().endReason).toBe('overall-timeout');
    });
  },
);

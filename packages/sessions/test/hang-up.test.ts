import { disposeAfterEach, isAlive, makeWorkspace, processTable, waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSession, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
const track = disposeAfterEach<ProcessSessions>();

/** bash's prompt (root's ends in #, anyone else's in $; bash may ignore PS1 from the environment). */
async function prompt(s: ProcessSession): Promise<void> {
  await waitFor(async () => /[$#] *$/.test(`${(await s.screen()).trimEnd()} `), 10_000, 'a bash prompt');
}

/** An interactive bash at its prompt, in a terminal session. */
async function idleBash(): Promise<ProcessSession> {
  const sessions = track(createProcessSessions({ cwd: workspace }));
  const s = await sessions.start({ command: 'bash', args: ['--norc', '--noprofile', '-i'], pty: true });
  await prompt(s);
  return s;
}

describe.skipIf(process.platform === 'win32')(
  'kill() on a terminal session hangs the terminal up first',
  () => {
    it('ends an idle bash -i by SIGHUP, not after the SIGTERM grace, and says so', async () => {
      const s = await idleBash();
      const started = Date.now();
      const outcome = await s.kill();
      const took = Date.now() - started;
      // The figure goes to the README; the assertion is on what ended it.
      console.info(`[hang-up] idle bash -i ended in ${took} ms`);
      expect(outcome).toEqual({ exitCode: null, signal: 'SIGHUP', state: 'killed' });
      expect(s.metadata().endReason).toBe('kill');
      expect(isAlive(s.pid!)).toBe(false);
    });

    it('ends a stopped bash -i by SIGHUP too: the hang-up continues what it signalled, as the kernel does', async () => {
      const s = await idleBash();
      process.kill(s.pid!, 'SIGSTOP');
      await waitFor(() => processTable().find((p) => p.pid === s.pid)?.state === 'T', 10_000, 'bash stopped');
      // Stopped, it cannot act on the SIGHUP until it is continued; without SIGCONT it sat out
      // the SIGTERM grace and ended by SIGKILL.
      expect(await s.kill()).toEqual({ exitCode: null, signal: 'SIGHUP', state: 'killed' });
    });

    it('reaches the foreground job (cat) and the shell, and leaves nothing behind', async () => {
      const s = await idleBash();
      await s.input('exec 2>/dev/null; cat\r');
      const shell = s.pid!;
      await waitFor(
        () => processTable().some((p) => p.ppid === shell && p.command.includes('cat')),
        10_000,
        'cat',
      );
      const cat = processTable().find((p) => p.ppid === shell && p.command.includes('cat'))!;
      const outcome = await s.kill();
      expect(outcome.state).toBe('killed');
      expect(outcome.signal).toBe('SIGHUP');
      await waitFor(() => !isAlive(cat.pid), 5_000, 'cat gone');
    });

    it('a pipe session is not hung up (there is no terminal): SIGTERM of the tree kill ends it', async () => {
      const sessions = track(createProcessSessions({ cwd: workspace }));
      const s = await sessions.start({ command: 'sleep', args: ['30'] });
      const outcome = await s.kill();
      expect(outcome).toEqual({ exitCode: null, signal: 'SIGTERM', state: 'killed' });
    });
  },
);

// The ProcessSession interface as a host sees it: its facts, waiting for input, signals and
// the events a session emits, all from real processes.
import type { ProcessEvent } from '@procmux/core-types';
import { assertNoLeakedProcesses, makeWorkspace, rejectsWith, waitFor } from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSession, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
const events: ProcessEvent[] = [];
let sessions: ProcessSessions | undefined;

function registry(extra: Partial<Parameters<typeof createProcessSessions>[0]> = {}): ProcessSessions {
  sessions = createProcessSessions({ cwd: workspace, onEvent: (e) => events.push(e), ...extra });
  return sessions;
}

afterEach(async () => {
  await sessions?.dispose();
  sessions = undefined;
  events.length = 0;
});

afterAll(async () => {
  await assertNoLeakedProcesses();
});

describe('a handle tells its facts', () => {
  it('states its lifetime end, cancel behaviour, terminal and backend', async () => {
    const s: ProcessSession = await registry().start({
      command: 'sleep',
      args: ['30'],
      pty: true,
      lifetimeMs: 60_000,
      releaseOnCancel: true,
      terminal: { columns: 100, rows: 30 },
    });
    expect(s.expiresAt - s.startedAt).toBe(60_000);
    expect(s.releaseOnCancel).toBe(true);
    expect(s.backendRef).toBeUndefined();
    expect(s.pty).toBe(true);
    expect(s.cwd).toBe(workspace);
    expect(s.args).toEqual(['30']);
    expect(s.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(s.terminalSize).toEqual({ columns: 100, rows: 30 });
    expect(s.canResize).toBe(true);
    expect(typeof s.resize).toBe('function');
    expect(s.holdsScreen).toBe(true);
    expect(s.humanControl).toBeNull();
    expect(s.live).toBe(true);
  });

  it('a pipe session has no terminal size and cannot resize', async () => {
    const s = await registry().start({ command: 'sleep', args: ['30'] });
    expect(s.terminalSize).toBeUndefined();
    expect(s.canResize).toBe(false);
    expect(s.releaseOnCancel).toBe(false);
    expect('resize' in s).toBe(false);
  });
});

describe('signals go through the run', () => {
  it('signal() ends a native process by that signal and the outcome says so', async () => {
    const s = await registry().start({ command: 'sleep', args: ['30'] });
    await s.signal('SIGTERM');
    const outcome = await s.wait({ timeoutMs: 20_000 });
    expect(outcome).toEqual({ exitCode: null, signal: 'SIGTERM', state: 'killed' });
  });

  it('signal() with a name that is not a signal is ERR_INVALID_OPTION and sends nothing', async () => {
    const s = await registry().start({ command: 'sleep', args: ['30'] });
    await rejectsWith(s.signal('SIGNOPE' as never), 'ERR_INVALID_OPTION');
    expect(s.live).toBe(true);
  });

  it('signal() on an ended session is ERR_PROCESS_STATE', async () => {
    const s = await registry().start({ command: 'true' });
    await s.wait({ timeoutMs: 20_000 });
    await rejectsWith(s.signal('SIGTERM'), 'ERR_PROCESS_STATE');
  });
});

describe('waiting for input', () => {
  it('emits process_waiting_input with the prompt, and checkInput() answers the same', async () => {
    const s = await registry().start({
      command: 'sh',
      args: ['-c', 'printf "name? "; read x; echo "hi $x"'],
      pty: true,
    });
    const stop = s.watchInput();
    try {
      await waitFor(() => events.some((e) => e.type === 'process_waiting_input'), 20_000);
    } finally {
      stop();
    }
    const event = events.find((e) => e.type === 'process_waiting_input')!;
    expect(event.sessionId).toBe(s.id);
    expect(event.state).toBe('running');
    expect(event.input?.prompt).toBe('name?');
    expect((await s.checkInput())?.prompt).toBe('name?');
    await s.paste('ada');
    await s.submit();
    expect(await s.wait({ timeoutMs: 20_000 })).toMatchObject({ state: 'exited', exitCode: 0 });
    expect(await s.checkInput()).toBeNull();
  });
});

describe('events are built one way', () => {
  it('process_started and process_exited carry the same facts of the session', async () => {
    const s = await registry().start({ command: 'sh', args: ['-c', 'exit 3'], owner: 'agent-1' });
    await s.wait({ timeoutMs: 20_000 });
    const started = events.find((e) => e.type === 'process_started')!;
    const exited = events.find((e) => e.type === 'process_exited')!;
    for (const event of [started, exited]) {
      expect(event).toMatchObject({
        sessionId: s.id,
        owner: 'agent-1',
        fingerprint: s.fingerprint,
        startedAt: s.startedAt,
        pid: s.pid,
        stdioMode: 'pipe',
      });
    }
    expect(started).toMatchObject({ endedAt: null, exitCode: null, signal: null });
    expect(exited).toMatchObject({ state: 'exited', exitCode: 3, signal: null, endedAt: s.endedAt });
    expect(Object.keys(started)).not.toContain('env');
  });

  it('a kill ends in process_killed with reason kill', async () => {
    const s = await registry().start({ command: 'sleep', args: ['30'] });
    await s.kill();
    const killed = events.find((e) => e.type === 'process_killed')!;
    expect(killed).toMatchObject({ sessionId: s.id, state: 'killed', exitCode: null, reason: 'kill' });
  });
});

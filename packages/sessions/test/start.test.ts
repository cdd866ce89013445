import { join } from 'node:path';
import type { ProcessEvent } from '@procmux/core-types';
import { disposeAfterEach, makeWorkspace, rejectsWith, throwsWith } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { commandFingerprint, createProcessSessions, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
let sessions: ProcessSessions | undefined;

const track = disposeAfterEach<ProcessSessions>();

afterEach(() => {
  sessions = undefined;
});

describe('start', () => {
  it('runs command + args without a shell', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({ command: 'printf', args: ['%s|', '$HOME', 'a b'] });
    expect(await s.wait({ timeoutMs: 10_000 })).toEqual({ exitCode: 0, signal: null, state: 'exited' });
    expect((await s.poll()).stdout).toBe('$HOME|a b|');
    expect(s.metadata().shellName).toBeNull();
  });

  it('runs a shell line (no args) through the shell when shell: true', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({
      shell: true,
      command: 'echo "$((6 * 7))" | tr 4 X',
      env: { EXTRA: 'x' },
    });
    await s.wait({ timeoutMs: 10_000 });
    expect((await s.poll()).stdout).toBe('X2\n');
    expect(s.metadata().shellName).toBe('bash');
  });

  it('resolves cwd inside the workspace and refuses one outside before spawning', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({ command: 'pwd', args: [], cwd: 'sub' });
    await s.wait({ timeoutMs: 10_000 });
    expect((await s.poll()).stdout.trim()).toBe(join(workspace, 'sub'));
    await rejectsWith(sessions.start({ command: 'pwd', args: [], cwd: '..' }), 'ERR_PROCESS_POLICY');
    expect(sessions.list()).toHaveLength(1);
  });

  it('refuses pty: true without a PTY backend', async () => {
    sessions = track(createProcessSessions({ cwd: workspace, ptyBackend: null }));
    const error = await rejectsWith(
      sessions.start({ command: 'true', args: [], pty: true }),
      'ERR_PROCESS_PTY_UNSUPPORTED',
    );
    expect(error.message).toMatch(/no PTY backend/);
    expect(sessions.list()).toHaveLength(0);
  });

  it('counts live sessions against maxSessions', async () => {
    sessions = track(createProcessSessions({ cwd: workspace, limits: { maxSessions: 2 } }));
    await sessions.start({ command: 'sleep', args: ['30'] });
    await sessions.start({ command: 'sleep', args: ['30'] });
    const error = await rejectsWith(sessions.start({ command: 'sleep', args: ['30'] }), 'ERR_PROCESS_LIMIT');
    expect(error.message).toBe('2 sessions are running; this registry allows at most 2');
  });

  it('asks the policy before spawning and reports its reason', async () => {
    const asked: string[] = [];
    sessions = track(
      createProcessSessions({
        cwd: workspace,
        policy: (request) => {
          asked.push(`${request.action}:${request.command}`);
          return request.command === 'rm' ? { allow: false, reason: 'no deleting' } : true;
        },
      }),
    );
    const error = await rejectsWith(
      sessions.start({ command: 'rm', args: ['-rf', 'sub'] }),
      'ERR_PROCESS_POLICY',
    );
    expect(error.message).toBe('policy denied start: no deleting');
    expect(asked).toEqual(['start:rm']);
    expect(sessions.list()).toHaveLength(0);
  });

  it('rejects bad requests with ERR_INVALID_OPTION', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    await rejectsWith(sessions.start({ command: '' }), 'ERR_INVALID_OPTION');
    await rejectsWith(sessions.start({ command: 'x', args: [1 as unknown as string] }), 'ERR_INVALID_OPTION');
    await rejectsWith(sessions.start({ command: 'x', lifetimeMs: 0 }), 'ERR_INVALID_OPTION');
    await rejectsWith(sessions.start({ command: 'x', timeoutMs: -5 }), 'ERR_INVALID_OPTION');
    await rejectsWith(
      sessions.start({ command: 'x', terminal: { columns: 121 }, pty: true }),
      'ERR_INVALID_OPTION',
    );
    await rejectsWith(
      sessions.start({ command: 'x', env: { A: 1 as unknown as string } }),
      'ERR_INVALID_OPTION',
    );
    await rejectsWith(sessions.start({ command: 'x', stdin: 'half' as never }), 'ERR_INVALID_OPTION');
    throwsWith(
      () => createProcessSessions({ cwd: workspace, limits: { maxSessions: 99 } }),
      'ERR_INVALID_OPTION',
    );
    throwsWith(() => createProcessSessions({} as never), 'ERR_INVALID_OPTION');
  });

  it('reports a missing executable as ERR_PROCESS_SPAWN and keeps no record', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    await rejectsWith(sessions.start({ command: 'procmux-no-such-binary', args: [] }), 'ERR_PROCESS_SPAWN');
    expect(sessions.list()).toHaveLength(0);
  });
});

describe('fingerprint and events', () => {
  it('emits started and exited with the fingerprint, never the environment', async () => {
    const events: ProcessEvent[] = [];
    sessions = track(
      createProcessSessions({
        cwd: workspace,
        onEvent: (e) => events.push(e),
        ownership: { tenantId: 't', userId: 'u' },
      }),
    );
    const s = await sessions.start({
      command: 'sh',
      args: ['-c', 'exit 4'],
      env: { SECRET_TOKEN: 'hunter2' },
    });
    await s.wait({ timeoutMs: 10_000 });
    expect(events.map((e) => e.type)).toEqual(['process_started', 'process_exited']);
    expect(events[1]).toMatchObject({ sessionId: s.id, owner: 't:u', exitCode: 4, state: 'exited' });
    expect(events[0]?.fingerprint).toBe(commandFingerprint('sh', ['-c', 'exit 4']));
    expect(s.fingerprint).toBe(commandFingerprint('sh', ['-c', 'exit 4']));
    const everything = JSON.stringify({ events, meta: s.metadata() });
    expect(everything).not.toContain('hunter2');
    expect(everything).not.toContain('SECRET_TOKEN');
  });

  it('keeps running when the event sink throws', async () => {
    sessions = track(
      createProcessSessions({
        cwd: workspace,
        onEvent: () => {
          throw new Error('sink down');
        },
      }),
    );
    const s = await sessions.start({ command: 'echo', args: ['ok'] });
    expect((await s.wait({ timeoutMs: 10_000 })).exitCode).toBe(0);
    expect((await s.poll()).stdout).toBe('ok\n');
  });

  it('gives unguessable, unique ids', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    const a = await sessions.start({ command: 'true', args: [] });
    const b = await sessions.start({ command: 'true', args: [] });
    expect(a.id).not.toBe(b.id);
    expect(a.id).toMatch(/^proc_[a-z2-9]{7}$/);
  });
});

// Pipe and PTY sessions keep the same contract: limits, owners, policy, cwd, the sweep of
// ended sessions, the history cap, the fingerprint and the events run as one table of cases,
// once per mode, on real processes.
import { join } from 'node:path';
import type { ProcessEvent } from '@procmux/core-types';
import { disposeAfterEach, makeWorkspace, rejectsWith, throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { commandFingerprint, createProcessSessions, type PolicyRequest } from '../src/index.js';

const workspace = makeWorkspace();
const track = disposeAfterEach<ReturnType<typeof createProcessSessions>>();

describe.each([
  { mode: 'pipe', pty: false, stdioMode: 'pipe' },
  { mode: 'pty', pty: true, stdioMode: 'pty' },
] as const)('$mode sessions', ({ pty, stdioMode }) => {
  it('count against maxSessions', async () => {
    const sessions = track(createProcessSessions({ cwd: workspace, limits: { maxSessions: 2 } }));
    await sessions.start({ command: 'sleep', args: ['30'], pty });
    await sessions.start({ command: 'sleep', args: ['30'], pty });
    const error = await rejectsWith(
      sessions.start({ command: 'sleep', args: ['30'], pty }),
      'ERR_PROCESS_LIMIT',
    );
    expect(error.message).toBe('2 sessions are running; this registry allows at most 2');
    expect(sessions.list().map((s) => s.metadata().stdioMode)).toEqual([stdioMode, stdioMode]);
  });

  it('belong to their owner: get, list and cancelOwned', async () => {
    const sessions = track(createProcessSessions({ cwd: workspace }));
    const mine = await sessions.start({ command: 'sleep', args: ['30'], owner: 'alice', pty });
    const theirs = await sessions.start({ command: 'sleep', args: ['30'], owner: 'bob', pty });
    expect(sessions.get(mine.id, 'alice')).toBe(mine);
    throwsWith(() => sessions.get(mine.id, 'bob'), 'ERR_PROCESS_OWNERSHIP');
    expect(sessions.list('alice')).toEqual([mine]);
    expect(await sessions.cancelOwned('alice')).toBe(1);
    expect(mine.state).toBe('killed');
    expect(theirs.state).toBe('running');
  });

  it('ask the policy with the mode, and a denial spawns nothing', async () => {
    const asked: PolicyRequest[] = [];
    const sessions = track(
      createProcessSessions({
        cwd: workspace,
        policy: (request) => {
          asked.push(request);
          return request.command === 'rm' ? { allow: false, reason: 'no deleting' } : true;
        },
      }),
    );
    const error = await rejectsWith(
      sessions.start({ command: 'rm', args: ['-rf', 'sub'], pty }),
      'ERR_PROCESS_POLICY',
    );
    expect(error.message).toBe('policy denied start: no deleting');
    expect(sessions.list()).toHaveLength(0);
    const s = await sessions.start({ command: 'sleep', args: ['30'], pty });
    await s.signal('SIGTERM');
    expect(asked.map((r) => [r.action, r.command, r.pty, r.shell])).toEqual([
      ['start', 'rm', pty, false],
      ['start', 'sleep', pty, false],
      ['signal', 'sleep', pty, false],
    ]);
  });

  it('run in a cwd inside the workspace and refuse one outside', async () => {
    const sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({ command: 'pwd', cwd: 'sub', pty });
    await s.wait({ timeoutMs: 10_000 });
    expect((await s.output()).data.trim()).toBe(join(workspace, 'sub'));
    await rejectsWith(sessions.start({ command: 'pwd', cwd: '..', pty }), 'ERR_PROCESS_POLICY');
    expect(sessions.list()).toHaveLength(1);
  });

  it('are swept once more than maxEndedSessions have ended', async () => {
    const sessions = track(createProcessSessions({ cwd: workspace, maxEndedSessions: 1 }));
    const first = await sessions.start({ command: 'true', pty });
    await first.wait({ timeoutMs: 10_000 });
    const second = await sessions.start({ command: 'true', pty });
    await second.wait({ timeoutMs: 10_000 });
    expect(sessions.list().map((s) => s.id)).toEqual([second.id]);
    throwsWith(() => sessions.get(first.id), 'ERR_PROCESS_NOT_FOUND');
  });

  it('keep at most maxOutputBytes of history, the oldest dropped and counted', async () => {
    const sessions = track(createProcessSessions({ cwd: workspace, limits: { maxOutputBytes: 100_000 } }));
    const s = await sessions.start({ command: 'seq', args: ['1', '100000'], pty });
    await s.wait({ timeoutMs: 30_000 });
    const meta = s.metadata();
    // seq 1 100000 writes 588,895 bytes; a terminal turns each \n into \r\n.
    expect(meta.totalBytes).toBe(pty ? 688_895 : 588_895);
    expect(meta.truncated).toBe(true);
    expect(meta.retainedBytes).toBeLessThanOrEqual(100_000);
    expect(meta.retainedBytes).toBeGreaterThan(99_990);
    expect(meta.droppedBytes + meta.retainedBytes).toBe(meta.totalBytes);
    const page = await s.output({ cursor: 0, maxBytes: 64 });
    expect(page.droppedBytes).toBe(meta.droppedBytes);
  });

  it('carry the fingerprint of command and args in the handle, metadata and events', async () => {
    const events: ProcessEvent[] = [];
    const sessions = track(createProcessSessions({ cwd: workspace, onEvent: (e) => events.push(e) }));
    const s = await sessions.start({
      command: 'sh',
      args: ['-c', 'exit 4'],
      pty,
      env: { SECRET_TOKEN: 'hunter2' },
    });
    expect((await s.wait({ timeoutMs: 10_000 })).exitCode).toBe(4);
    const fingerprint = commandFingerprint('sh', ['-c', 'exit 4']);
    expect(s.fingerprint).toBe(fingerprint);
    expect(s.metadata().fingerprint).toBe(fingerprint);
    expect(events.map((e) => [e.type, e.sessionId, e.fingerprint])).toEqual([
      ['process_started', s.id, fingerprint],
      ['process_exited', s.id, fingerprint],
    ]);
    expect(events[1]).toMatchObject({ exitCode: 4, state: 'exited' });
    expect(JSON.stringify({ events, meta: s.metadata() })).not.toContain('hunter2');
  });

  it('end in process_killed when killed', async () => {
    const events: ProcessEvent[] = [];
    const sessions = track(createProcessSessions({ cwd: workspace, onEvent: (e) => events.push(e) }));
    const s = await sessions.start({ command: 'sleep', args: ['30'], pty });
    expect(await s.kill()).toMatchObject({ state: 'killed' });
    expect(events.map((e) => e.type)).toEqual(['process_started', 'process_killed']);
  });
});

// Limits hold when starts arrive together (the slot is reserved before the first await), a
// failed start gives its slot back, and `lifetime` is honoured only where it can be.
import { isProcmuxError } from '@procmux/core-types';
import { disposeAfterEach, makeWorkspace, rejectsWith } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSessions } from '../src/index.js';
import { pipePtyBackend } from './helpers/fake-backends.js';

const workspace = makeWorkspace();
let sessions: ProcessSessions | undefined;

const track = disposeAfterEach<ProcessSessions>();

afterEach(() => {
  sessions = undefined;
});

async function startAll(registry: ProcessSessions, count: number) {
  return Promise.allSettled(
    Array.from({ length: count }, () => registry.start({ command: 'sleep', args: ['60'] })),
  );
}

describe('maxSessions under concurrent starts', () => {
  it('lets exactly 32 of 100 concurrent starts through, and 32 more once those ended', async () => {
    const registry = createProcessSessions({ cwd: workspace, limits: { maxSessions: 32 } });
    track(registry);
    const results = await startAll(registry, 100);
    const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(started).toHaveLength(32);
    expect(refused).toHaveLength(68);
    expect(refused.every((error) => isProcmuxError(error, 'ERR_PROCESS_LIMIT'))).toBe(true);
    expect(registry.list().filter((s) => s.state === 'running')).toHaveLength(32);

    await Promise.all(started.map((s) => s.kill()));
    const again = await startAll(registry, 32);
    expect(again.filter((r) => r.status === 'fulfilled')).toHaveLength(32);
    await rejectsWith(registry.start({ command: 'sleep', args: ['60'] }), 'ERR_PROCESS_LIMIT');
  });

  it('gives the slot back when a start fails', async () => {
    const registry = createProcessSessions({ cwd: workspace, limits: { maxSessions: 1 } });
    track(registry);
    const failures = await Promise.allSettled([
      registry.start({ command: 'no-such-program-procmux', args: [] }),
      registry.start({ command: 'no-such-program-procmux', args: [] }),
    ]);
    expect(failures.every((r) => r.status === 'rejected')).toBe(true);
    const s = await registry.start({ command: 'sleep', args: ['60'] });
    expect(s.state).toBe('running');
  });

  it('refuses a start that would pass the limit while another is still starting', async () => {
    const registry = createProcessSessions({ cwd: workspace, limits: { maxSessions: 2 } });
    track(registry);
    const results = await startAll(registry, 6);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
  });
});

describe('lifetime', () => {
  it("refuses 'detached' on the native backends, saying what would allow it", async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    for (const pty of [false, true]) {
      const error = await rejectsWith(
        sessions.start({ command: 'sleep', args: ['1'], pty, lifetime: 'detached' }),
        'ERR_INVALID_OPTION',
      );
      expect(error.message).toMatch(/persistent: true/);
    }
    expect(sessions.list()).toHaveLength(0);
  });

  it('refuses an unknown lifetime', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    const error = await rejectsWith(
      sessions.start({ command: 'true', args: [], lifetime: 'forever' as 'host' }),
      'ERR_INVALID_OPTION',
    );
    expect(error.message).toBe("lifetime must be one of 'host', 'detached' (got \"forever\")");
  });

  it("refuses 'detached' on a host backend that does not declare persistent", async () => {
    sessions = track(createProcessSessions({ cwd: workspace, ptyBackend: pipePtyBackend() }));
    await rejectsWith(
      sessions.start({ command: 'true', args: [], pty: true, lifetime: 'detached' }),
      'ERR_INVALID_OPTION',
    );
  });

  it('passes the lifetime to a persistent backend, which alone may keep a session past its host', async () => {
    const backend = Object.assign(pipePtyBackend(), { persistent: true });
    sessions = track(createProcessSessions({ cwd: workspace, ptyBackend: backend }));
    const detached = await sessions.start({
      command: 'true',
      args: [],
      pty: true,
      screen: false,
      lifetime: 'detached',
    });
    const host = await sessions.start({ command: 'true', args: [], pty: true, screen: false });
    await detached.wait({ timeoutMs: 10_000 });
    await host.wait({ timeoutMs: 10_000 });
    expect(backend.starts.map((s) => s.lifetime)).toEqual(['detached', 'host']);
  });
});

import type { ProcessEvent } from '@procmux/core-types';
import { disposeAfterEach, makeWorkspace, rejectsWith, waitFor } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createProcessSessions,
  type ProcessPtyBackend,
  type ProcessSessions,
  type PtyBackendHandle,
} from '../src/index.js';
import { pipePtyBackend, pipeSandbox } from './helpers/fake-backends.js';

const workspace = makeWorkspace();
let sessions: ProcessSessions | undefined;

const track = disposeAfterEach<ProcessSessions>();

afterEach(() => {
  sessions = undefined;
});

describe('host PTY backend', () => {
  it('starts pty sessions through startPty with the terminal request', async () => {
    const backend = pipePtyBackend();
    sessions = track(createProcessSessions({ cwd: workspace, ptyBackend: backend }));
    const s = await sessions.start({
      command: 'sh',
      args: ['-c', 'echo "$TERM"; read line; echo "got $line"'],
      pty: true,
      terminal: { columns: 100, rows: 30, term: 'xterm' },
      screen: false,
    });
    expect(backend.starts[0]).toMatchObject({
      file: 'sh',
      columns: 100,
      rows: 30,
      term: 'xterm',
      cwd: workspace,
    });
    expect(s.metadata()).toMatchObject({ backend: 'pty-backend', stdioMode: 'pty' });
    await s.input('ping\n');
    expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0, state: 'exited' });
    expect((await s.output({ cursor: 0 })).data).toBe('xterm\ngot ping\n');
  });

  it('refuses a backend without startPty when the registry is built, before any record exists', () => {
    for (const bad of [{}, { startPty: 'yes' }, { capabilities: { resize: true } }]) {
      const error = (() => {
        try {
          createProcessSessions({ cwd: workspace, ptyBackend: bad as unknown as ProcessPtyBackend });
        } catch (caught) {
          return caught as { code: string; message: string };
        }
        return undefined;
      })();
      expect(error?.code).toBe('ERR_INVALID_OPTION');
      expect(error?.message).toContain('startPty(request) function');
    }
    const resize = { startPty: () => ({}), capabilities: { resize: 'yes' } };
    expect(() =>
      createProcessSessions({ cwd: workspace, ptyBackend: resize as unknown as ProcessPtyBackend }),
    ).toThrow('ptyBackend.capabilities.resize must be true or false (got "yes")');
  });

  it('canResize is true on a native terminal session and false on pipes', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    const terminal = await sessions.start({ command: 'sleep', args: ['30'], pty: true });
    const pipes = await sessions.start({ command: 'sleep', args: ['30'] });
    expect(terminal.canResize).toBe(true);
    expect(pipes.canResize).toBe(false);
    await terminal.resize!({ columns: 100, rows: 30 });
    expect('resize' in pipes).toBe(false);
  });

  it('wraps a shell command line with shell-wrap for the backend', async () => {
    const backend = pipePtyBackend();
    sessions = track(createProcessSessions({ cwd: workspace, ptyBackend: backend }));
    const s = await sessions.start({ shell: true, command: 'echo $((1+1))', pty: true, screen: false });
    await s.wait({ timeoutMs: 10_000 });
    expect(backend.starts[0]?.args.at(-1)).toBe('echo $((1+1))');
    expect((await s.output({ cursor: 0 })).data).toBe('2\n');
  });

  it('routes signal and kill to the handle, and offers resize only when declared', async () => {
    const plain = pipePtyBackend();
    sessions = track(createProcessSessions({ cwd: workspace, ptyBackend: plain }));
    const a = await sessions.start({ command: 'sleep', args: ['30'], pty: true, screen: false });
    expect(a.canResize).toBe(false);
    expect('resize' in a).toBe(false);
    await a.signal('SIGTERM');
    expect(await a.wait({ timeoutMs: 10_000 })).toMatchObject({
      state: 'killed',
      signal: 'SIGTERM',
      exitCode: null,
    });
    await sessions.dispose();

    const resizable = pipePtyBackend({ resize: true });
    sessions = track(createProcessSessions({ cwd: workspace, ptyBackend: resizable }));
    const b = await sessions.start({ command: 'sleep', args: ['30'], pty: true });
    expect(b.canResize).toBe(true);
    await b.resize!({ columns: 90, rows: 20 });
    expect(resizable.resizes).toEqual([[90, 20]]);
    await b.kill();
    expect(b.state).toBe('killed');
  });

  it('fails with ERR_PROCESS_PTY_LIMIT when attach overruns, removing the record and killing the late handle', async () => {
    const inner = pipePtyBackend();
    let lateHandle: PtyBackendHandle | undefined;
    // The backend answers only once the start has given up on it.
    let answer: () => void = () => {};
    const overrun = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const slow: ProcessPtyBackend = {
      startPty: async (request) => {
        await overrun;
        lateHandle = await inner.startPty(request);
        return lateHandle;
      },
    };
    sessions = track(
      createProcessSessions({
        cwd: workspace,
        ptyBackend: slow,
        limits: { maxPtyAttachTimeoutMs: 200 },
      }),
    );
    await rejectsWith(sessions.start({ command: 'sleep', args: ['30'], pty: true }), 'ERR_PROCESS_PTY_LIMIT');
    expect(sessions.list()).toHaveLength(0);
    answer();
    await waitFor(() => lateHandle !== undefined, 10_000, 'late handle');
    await expect(lateHandle!.wait()).resolves.toMatchObject({ signal: 'SIGKILL' });
  });

  it('reports a throwing startPty generically and leaves the session unknown', async () => {
    const events: ProcessEvent[] = [];
    sessions = track(
      createProcessSessions({
        cwd: workspace,
        onEvent: (e) => events.push(e),
        ptyBackend: {
          startPty: () => {
            throw new Error('connect ECONNREFUSED token=abc123');
          },
        },
      }),
    );
    const error = await rejectsWith(
      sessions.start({ command: 'x', args: [], pty: true }),
      'ERR_PROCESS_PTY_BACKEND',
    );
    expect(error.message).toBe('the process backend failed to start the session');
    expect(error.message).not.toContain('abc123');
    const [record] = sessions.list();
    expect(record?.metadata()).toMatchObject({ state: 'unknown', exitCode: null });
    expect(events.map((e) => e.type)).toEqual(['process_unknown']);
  });

  it('turns a lost wait() into unknown with ERR_PROCESS_PTY_BACKEND, never an exit code', async () => {
    const inner = pipePtyBackend();
    let loseIt: (error: Error) => void = () => {};
    sessions = track(
      createProcessSessions({
        cwd: workspace,
        ptyBackend: {
          startPty: (request) => {
            const handle = inner.startPty(request) as PtyBackendHandle;
            const lost = new Promise<never>((_, reject) => {
              loseIt = reject;
            });
            return { ...handle, wait: () => lost };
          },
        },
      }),
    );
    const s = await sessions.start({ command: 'sleep', args: ['30'], pty: true });
    loseIt(new Error('socket closed'));
    const error = await rejectsWith(s.wait({ timeoutMs: 10_000 }), 'ERR_PROCESS_PTY_BACKEND');
    expect(error.message).not.toContain('socket closed');
    expect(error.message).toBe('the process backend lost this session; its outcome is unknown');
    expect(s.metadata()).toMatchObject({ state: 'unknown', exitCode: null });
    inner.children[0]?.kill('SIGKILL');
  });

  it('refuses backend metadata over the byte limit', async () => {
    const backend = pipePtyBackend({ metadata: { blob: 'x'.repeat(5000) } });
    sessions = track(createProcessSessions({ cwd: workspace, ptyBackend: backend }));
    await rejectsWith(sessions.start({ command: 'sleep', args: ['30'], pty: true }), 'ERR_PROCESS_PTY_LIMIT');
    await expect(
      backend.children[0] && new Promise((r) => backend.children[0]!.once('exit', r)),
    ).resolves.toBeDefined();
  });

  it('bounds metadata but keeps it when small', async () => {
    const backend = pipePtyBackend({ metadata: { host: 'h1' } });
    sessions = track(createProcessSessions({ cwd: workspace, ptyBackend: backend }));
    const s = await sessions.start({ command: 'true', args: [], pty: true });
    expect(s.metadata().backendMetadata).toEqual({ host: 'h1' });
  });
});

describe('sandbox', () => {
  it('runs sessions through startProcess with streams apart', async () => {
    const sandbox = pipeSandbox();
    sessions = track(createProcessSessions({ cwd: workspace, sandbox }));
    const s = await sessions.start({ command: 'sh', args: ['-c', 'echo out; echo err >&2; exit 5'] });
    expect(sandbox.starts).toHaveLength(1);
    expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 5, state: 'exited' });
    const poll = await s.poll();
    expect(poll).toMatchObject({ stdout: 'out\n', stderr: 'err\n' });
    expect(s.metadata().backend).toBe('sandbox');
  });

  it('fails closed without startProcess (no native fallback)', async () => {
    sessions = track(createProcessSessions({ cwd: workspace, sandbox: { status: () => 'running' } }));
    await rejectsWith(sessions.start({ command: 'true', args: [] }), 'ERR_PROCESS_UNSUPPORTED');
  });

  it('marks live sessions unknown when the sandbox stops, and refuses later starts', async () => {
    const sandbox = pipeSandbox();
    sessions = track(createProcessSessions({ cwd: workspace, sandbox }));
    const s = await sessions.start({ command: 'sleep', args: ['30'] });
    sandbox.state = 'stopped';
    await s.poll();
    expect(s.metadata()).toMatchObject({ state: 'unknown', exitCode: null });
    await rejectsWith(sessions.start({ command: 'true', args: [] }), 'ERR_PROCESS_UNSUPPORTED');
  });

  it('treats a throwing status() as not running', async () => {
    const sandbox = pipeSandbox();
    sandbox.status = () => {
      throw new Error('unreachable');
    };
    sessions = track(createProcessSessions({ cwd: workspace, sandbox }));
    await rejectsWith(sessions.start({ command: 'true', args: [] }), 'ERR_PROCESS_UNSUPPORTED');
  });
});

// Host backends for tests, backed by real processes (child_process pipes standing in for a
// terminal or a sandbox), so sessions' adaptation is exercised end to end.
import { type ChildProcess, spawn } from 'node:child_process';
import { trackPid } from '@procmux/test-utils';
import type {
  BackendExit,
  ProcessPtyBackend,
  ProcessSandboxBackend,
  PtyBackendHandle,
  PtyStartRequest,
  SandboxProcessHandle,
  SandboxStartRequest,
} from '../../src/index.js';

// 'close', not 'exit': a backend's wait() resolves after its last output was delivered, as
// the contract says, and 'exit' can come before the pipes' last data.
function exitOf(child: ChildProcess): Promise<BackendExit> {
  return new Promise((resolve) => {
    child.once('close', (code, signal) => resolve({ exitCode: code, signal: signal ?? null }));
  });
}

export interface RecordingPtyBackend extends ProcessPtyBackend {
  starts: PtyStartRequest[];
  resizes: [number, number][];
  children: ChildProcess[];
}

export function pipePtyBackend(
  options: { resize?: boolean; metadata?: Record<string, unknown> } = {},
): RecordingPtyBackend {
  const backend: RecordingPtyBackend = {
    capabilities: { resize: options.resize === true },
    starts: [],
    resizes: [],
    children: [],
    startPty(request): PtyBackendHandle {
      backend.starts.push(request);
      const child = spawn(request.file, request.args, { cwd: request.cwd, env: request.env, detached: true });
      trackPid(child.pid);
      backend.children.push(child);
      child.stdout?.setEncoding('utf8').on('data', (d: string) => request.onData(d));
      child.stderr?.setEncoding('utf8').on('data', (d: string) => request.onData(d));
      const exit = exitOf(child);
      return {
        pid: child.pid,
        ref: `test-pty:${child.pid}`,
        ...(options.metadata ? { metadata: options.metadata } : {}),
        write: (data) => {
          child.stdin?.write(data);
        },
        signal: (name) => {
          child.kill(name);
        },
        kill: () => {
          child.kill('SIGKILL');
        },
        release: () => {},
        wait: () => exit,
        resize: (columns, rows) => {
          backend.resizes.push([columns, rows]);
        },
      };
    },
  };
  return backend;
}

export interface FakeSandbox extends ProcessSandboxBackend {
  state: string;
  starts: SandboxStartRequest[];
}

export function pipeSandbox(): FakeSandbox {
  const sandbox: FakeSandbox = {
    state: 'running',
    starts: [],
    status: () => sandbox.state,
    startProcess(request): SandboxProcessHandle {
      sandbox.starts.push(request);
      const child = spawn(request.command, request.args, {
        cwd: request.cwd,
        env: request.env,
        detached: true,
      });
      trackPid(child.pid);
      child.stdout?.setEncoding('utf8').on('data', (d: string) => request.onStdout(d));
      child.stderr?.setEncoding('utf8').on('data', (d: string) => request.onStderr(d));
      const exit = exitOf(child);
      return {
        pid: child.pid,
        write: (data) => {
          child.stdin?.write(data);
        },
        closeStdin: () => {
          child.stdin?.end();
        },
        signal: (name) => {
          child.kill(name);
        },
        kill: () => {
          child.kill('SIGKILL');
        },
        wait: () => exit,
      };
    },
  };
  return sandbox;
}

// A host "terminal server" for recovery tests: processes it starts outlive the registry that
// asked for them (they belong to the server), carry an opaque ref, and can be re-attached by
// ref through its recovery backend, which then routes input, signals, kill and wait to the
// same real process and streams its output to the new session.
import { type ChildProcess, spawn } from 'node:child_process';
import type { ProcessRecoveryBackend, RecoveredProcessHandle, SignalName } from '@procmux/core-types';
import { trackPid } from '@procmux/test-utils';
import type { BackendExit, ProcessPtyBackend, PtyBackendHandle } from '../../src/index.js';

interface Hosted {
  child: ChildProcess;
  exit: Promise<BackendExit>;
  /** Where output goes: the latest attachment. */
  onData: (data: string) => void;
}

export interface TerminalServer {
  ptyBackend: ProcessPtyBackend;
  recoveryBackend: ProcessRecoveryBackend;
  /** Every call a handle received, as [ref, call, argument]. */
  calls: [string, string, unknown][];
  attaches: string[];
  children: ChildProcess[];
}

export function terminalServer(): TerminalServer {
  const hosted = new Map<string, Hosted>();
  const server: TerminalServer = {
    calls: [],
    attaches: [],
    children: [],
    ptyBackend: {
      capabilities: { resize: true },
      startPty(request) {
        const child = spawn(request.file, request.args, {
          cwd: request.cwd,
          env: request.env,
          detached: true,
        });
        trackPid(child.pid);
        server.children.push(child);
        const ref = `term-server:${child.pid}`;
        const entry: Hosted = {
          child,
          onData: request.onData,
          exit: new Promise((resolve) => {
            child.once('close', (code, signal) => resolve({ exitCode: code, signal: signal ?? null }));
          }),
        };
        child.stdout?.setEncoding('utf8').on('data', (d: string) => entry.onData(d));
        hosted.set(ref, entry);
        return handle(ref, entry) as PtyBackendHandle;
      },
    },
    recoveryBackend: {
      capabilities: { resize: true },
      attach(request) {
        server.attaches.push(request.ref);
        const entry = hosted.get(request.ref);
        if (!entry || entry.child.exitCode !== null || entry.child.signalCode !== null) return null;
        entry.onData = request.onStdout;
        return handle(request.ref, entry);
      },
    },
  };

  function handle(ref: string, entry: Hosted): RecoveredProcessHandle & { release(): void } {
    const record = (call: string, argument?: unknown) => server.calls.push([ref, call, argument]);
    return {
      pid: entry.child.pid,
      ref,
      write(data) {
        record('write', data);
        entry.child.stdin?.write(data);
      },
      signal(name: SignalName) {
        record('signal', name);
        entry.child.kill(name);
      },
      kill() {
        record('kill');
        entry.child.kill('SIGKILL');
      },
      release() {
        record('release');
      },
      resize(columns, rows) {
        record('resize', [columns, rows]);
      },
      wait() {
        record('wait');
        return entry.exit;
      },
    };
  }

  return server;
}

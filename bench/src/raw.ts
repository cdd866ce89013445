// The raw baselines: what a caller gets from child_process or node-pty with no procmux.
import { spawn } from 'node:child_process';
import { spawn as ptySpawn } from 'node-pty';
import { benchEnv, track, untrack } from './processes.js';
import { withTimeout } from './timing.js';

export interface RawHandlers {
  onData(chunk: string): void;
}

/**
 * `bash -c command` on pipes, stdout decoded as UTF-8 (procmux hands out strings too).
 * Resolves with the exit code once the process has exited and its pipes have closed.
 */
export async function rawPipe(
  command: string,
  handlers: RawHandlers,
  timeoutMs: number,
): Promise<number | null> {
  const child = spawn('bash', ['-c', command], { env: benchEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  track(child.pid);
  try {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', handlers.onData);
    child.stderr.resume();
    return await withTimeout(
      new Promise<number | null>((resolve, reject) => {
        child.once('error', reject);
        child.once('close', (code) => resolve(code));
      }),
      timeoutMs,
      `raw pipe run of ${command}`,
    );
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    untrack(child.pid);
  }
}

export interface RawPtyOptions {
  cols?: number;
  rows?: number;
}

/** `bash -c command` in a node-pty terminal; resolves at node-pty's onExit. */
export async function rawPty(
  command: string,
  handlers: RawHandlers,
  timeoutMs: number,
  options: RawPtyOptions = {},
): Promise<number> {
  const term = ptySpawn('bash', ['-c', command], {
    name: 'xterm-256color',
    cols: options.cols ?? 120,
    rows: options.rows ?? 30,
    env: benchEnv(),
  });
  track(term.pid);
  let exited = false;
  const data = term.onData(handlers.onData);
  const exit = new Promise<number>((resolve) =>
    term.onExit((e) => {
      exited = true;
      resolve(e.exitCode);
    }),
  );
  try {
    return await withTimeout(exit, timeoutMs, `raw PTY run of ${command}`);
  } finally {
    data.dispose();
    // Only a live process: after onExit the pid is reaped and may belong to someone else.
    if (!exited) term.kill('SIGKILL');
    untrack(term.pid);
  }
}

/** One flood read raw on pipes or a PTY: its exit code, the characters received, the ms it took. */
export async function rawFlood(
  mode: 'pipe' | 'pty',
  command: string,
  timeoutMs: number,
): Promise<{ code: number | null; received: number; ms: number }> {
  let received = 0;
  const onData = (chunk: string) => {
    received += chunk.length;
  };
  const start = performance.now();
  const code =
    mode === 'pipe'
      ? await rawPipe(command, { onData }, timeoutMs)
      : await rawPty(command, { onData }, timeoutMs);
  return { code, received, ms: performance.now() - start };
}

// Shared by the tmux tests: private state directories, child hosts, and the teardown that
// kills the private tmux server and proves nothing started here (or by a child host) lives on.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertNoLeakedProcesses, processTable, trackPid } from '@procmux/test-utils';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

const dirs: string[] = [];
const hostPids: number[] = [];

/** A fresh state directory (short: the tmux socket path must stay under 104 bytes). */
export function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pmt-'));
  dirs.push(dir);
  return dir;
}

/** Processes carrying a tree marker minted by `pid` (a host, dead or alive). */
export function markedBy(pid: number): number[] {
  return processTable()
    .filter((p) => p.state !== 'Z' && p.marker?.startsWith(`${pid}-`))
    .map((p) => p.pid);
}

/**
 * Everything the panes of the private tmux server under `dir` show now, scrollback included
 * (empty while the server is not up): what a test waits on instead of sleeping.
 */
export function paneText(dir: string): string {
  const socket = join(dir, 'tmux', 'tmux.sock');
  const tmux = (args: string[]) =>
    execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    return tmux(['list-panes', '-a', '-F', '#{pane_id}'])
      .split('\n')
      .filter(Boolean)
      .map((pane) => tmux(['capture-pane', '-p', '-J', '-S', '-', '-t', pane]))
      .join('\n');
  } catch {
    return '';
  }
}

/** Alive and not a zombie (a dead process its parent has not reaped yet is dead). */
export function alive(pid: number): boolean {
  return processTable().some((p) => p.pid === pid && p.state !== 'Z');
}

/** Starts a node fixture as a host; resolves with it and its first stdout line (JSON). */
export async function startHost<T>(
  script: string,
  args: string[],
): Promise<{ child: ChildProcess; first: T; lines: string[] }> {
  const child = spawn(process.execPath, [join(FIXTURES, script), ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (child.pid) hostPids.push(child.pid);
  // Its cgroups (and what it marked) are this file's to account for, also once it is dead.
  trackPid(child.pid);
  const lines: string[] = [];
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const first = await new Promise<T>((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (d: Buffer) => {
      buffer += d.toString();
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        lines.push(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
      }
      if (lines.length > 0) resolve(JSON.parse(lines[0]!) as T);
    });
    child.once('exit', (code) => reject(new Error(`host exited (${code}) before it spoke: ${stderr}`)));
  });
  return { child, first, lines };
}

export function sigkill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Kills the private tmux server under `dir` (if any). */
export function killTmuxServer(dir: string): void {
  try {
    execFileSync('tmux', ['-S', join(dir, 'tmux.sock'), 'kill-server'], { stdio: 'ignore' });
  } catch {}
}

/**
 * Teardown: every private server killed, then nothing this worker or its child hosts marked
 * may still run (tmux servers and panes included), then the directories go.
 */
export async function teardown(): Promise<void> {
  for (const dir of dirs) {
    killTmuxServer(join(dir, 'tmux'));
    killTmuxServer(dir);
  }
  const deadline = Date.now() + 5_000;
  let left = hostPids.flatMap(markedBy);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    left = hostPids.flatMap(markedBy);
  }
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  hostPids.length = 0;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  if (left.length > 0) throw new Error(`processes of child hosts left alive: ${left.join(', ')}`);
  await assertNoLeakedProcesses();
}

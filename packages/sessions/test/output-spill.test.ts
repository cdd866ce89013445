// A session's history beyond its memory window is in a spill file: metadata() says how much
// is where, every retained byte pages back exactly, an ended session keeps one block of its
// window in memory, and nothing is left once it is gone.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripAnsi } from '@procmux/ansi';
import { disposeAfterEach, makeWorkspace, testTmpdir, waitFor } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSession } from '../src/index.js';

const workspace = makeWorkspace();
const spillDir = mkdtempSync(join(testTmpdir(), 'procmux-session-spill-'));
afterAll(() => rmSync(spillDir, { recursive: true, force: true }));
const track = disposeAfterEach<ReturnType<typeof createProcessSessions>>();

function seqText(from: number, to: number): string {
  let text = '';
  for (let i = from; i <= to; i++) text += `${i}\n`;
  return text;
}

async function everything(s: ProcessSession): Promise<{ text: string; dropped: number }> {
  let cursor = 0;
  let text = '';
  let dropped = 0;
  for (;;) {
    const page = await s.output({ cursor });
    if (cursor === 0) dropped = page.droppedBytes;
    text += page.data;
    if (page.eof) return { text, dropped };
    cursor = page.cursor;
  }
}

const SPILL_HOST = fileURLToPath(new URL('./fixtures/spill-host.mjs', import.meta.url));

function openSpillFiles(pid: number | 'self' = 'self', dir = spillDir): string[] {
  const found: string[] = [];
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return found; // gone, or not ours to read
  }
  for (const fd of fds) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith(dir)) found.push(target);
    } catch {
      // The readdir's own descriptor, closed meanwhile.
    }
  }
  return found;
}

describe('output beyond the memory window', () => {
  it('spills to a file, pages back exactly, and is freed by dispose()', async () => {
    const sessions = track(
      createProcessSessions({
        cwd: workspace,
        limits: { maxOutputBytes: 4 * 1024 * 1024, maxOutputMemoryBytes: 256 * 1024 },
        outputSpillDir: spillDir,
      }),
    );
    // seq 1 1000000 writes 6,888,896 bytes: 4 MiB retained, 256 KiB of it in memory.
    const s = await sessions.start({ command: 'seq', args: ['1', '1000000'] });
    expect((await s.wait({ timeoutMs: 30_000 })).exitCode).toBe(0);
    const meta = s.metadata();
    expect(meta.totalBytes).toBe(6_888_896);
    expect(meta.retainedBytes).toBe(4 * 1024 * 1024);
    expect(meta.memoryBytes).toBeLessThanOrEqual(256 * 1024);
    expect(meta.memoryBytes + meta.diskBytes).toBe(meta.retainedBytes);
    expect(meta.spillError).toBeNull();
    // Ended, it gives back its window: one 16 KiB block (a sixteenth) stays in memory once
    // the spill writes under way completed (they count as memory until then).
    await waitFor(() => s.metadata().memoryBytes <= 16 * 1024, 10_000, 'the window given back');
    expect(s.metadata().memoryBytes + s.metadata().diskBytes).toBe(meta.retainedBytes);
    const { text, dropped } = await everything(s);
    expect(dropped).toBe(meta.droppedBytes);
    expect(text).toBe(seqText(1, 1_000_000).slice(dropped));
    expect(readdirSync(spillDir)).toEqual([]);
    expect(openSpillFiles()).toHaveLength(1);
    await sessions.dispose();
    expect(openSpillFiles()).toEqual([]);
  });
});

describe.skipIf(process.platform !== 'linux')('a host SIGKILLed with spilled history (Linux /proc)', () => {
  it('leaves no spill file: not in the dir, not held open by any process', async () => {
    const dir = mkdtempSync(join(testTmpdir(), 'procmux-spill-kill-'));
    const host = spawn(process.execPath, [SPILL_HOST, workspace, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => host.once('exit', () => resolve()));
    try {
      const ready = await new Promise<string>((resolve, reject) => {
        let out = '';
        host.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out.trim());
        });
        host.once('exit', (code, signal) => reject(new Error(`host ended before ready (${code ?? signal})`)));
      });
      expect(ready).toMatch(/^ready [1-9]\d*$/);
      // The history is on disk, in a file the host holds open and no name points to.
      expect(openSpillFiles(host.pid!, dir)).toEqual([expect.stringMatching(/\(deleted\)$/)]);
      expect(readdirSync(dir)).toEqual([]);
      host.kill('SIGKILL');
      await exited;
      const holders = readdirSync('/proc')
        .filter((name) => /^\d+$/.test(name))
        .filter((pid) => openSpillFiles(Number(pid), dir).length > 0);
      expect(holders).toEqual([]);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      if (host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('metadata().tail', () => {
  it('is the last 2,000 characters of output, ANSI-stripped', async () => {
    const sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({
      command: 'bash',
      args: ['-c', 'for i in $(seq 1 3000); do printf "\\033[31m%05d\\033[0m\\n" $i; done'],
    });
    expect((await s.wait({ timeoutMs: 30_000 })).exitCode).toBe(0);
    const { text } = await everything(s);
    const tail = s.metadata().tail;
    expect(tail).toBe(stripAnsi(text.slice(-2000)));
    expect(tail).not.toContain('\u001b');
    expect(tail.endsWith('02999\n03000\n')).toBe(true);
  });
});

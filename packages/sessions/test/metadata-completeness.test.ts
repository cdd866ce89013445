import { disposeAfterEach, makeWorkspace } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
let sessions: ProcessSessions | undefined;

const track = disposeAfterEach<ProcessSessions>();

afterEach(() => {
  sessions = undefined;
});

describe('metadata() says cheaply whether the history is complete', () => {
  it('a small output: every byte counted, nothing dropped, not truncated', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({ command: 'seq', args: ['1', '1000'] });
    await s.wait({ timeoutMs: 10_000 });
    // seq 1 1000 writes 3,893 bytes.
    expect(s.metadata()).toMatchObject({
      totalBytes: 3_893,
      retainedBytes: 3_893,
      droppedBytes: 0,
      truncated: false,
      stdioMode: 'pipe',
      pty: false,
      ptyFellBack: false,
    });
  });

  it('past the history cap: the dropped bytes are exactly the oldest ones, and truncated says so', async () => {
    sessions = track(createProcessSessions({ cwd: workspace, limits: { maxOutputBytes: 100_000 } }));
    const s = await sessions.start({ command: 'seq', args: ['1', '100000'] });
    await s.wait({ timeoutMs: 10_000 });
    const meta = s.metadata();
    // seq 1 100000 writes 588,895 bytes.
    expect(meta.totalBytes).toBe(588_895);
    expect(meta.truncated).toBe(true);
    expect(meta.retainedBytes).toBeLessThanOrEqual(100_000);
    expect(meta.droppedBytes + meta.retainedBytes).toBe(meta.totalBytes);
    // What is still held starts right after what was dropped.
    const page = await s.output({ cursor: meta.droppedBytes, maxBytes: 20 });
    expect(page.droppedBytes).toBe(0);
    expect(page.data.length).toBeGreaterThan(0);
  });

  it('a terminal session reports its resolved stdio mode and its byte counts', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({ command: 'printf', args: ['abc'], pty: true });
    await s.wait({ timeoutMs: 10_000 });
    expect(s.metadata()).toMatchObject({
      stdioMode: 'pty',
      pty: true,
      ptyFellBack: false,
      totalBytes: 3,
      droppedBytes: 0,
      truncated: false,
    });
  });
});

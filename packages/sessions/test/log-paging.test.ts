// log() of real sessions pages their whole retained history (the index itself is tested in
// @procmux/transcript's test/lines).
import { disposeAfterEach, makeWorkspace, waitFor } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
let sessions: ProcessSessions | undefined;

const track = disposeAfterEach<ProcessSessions>();

afterEach(() => {
  sessions = undefined;
});

describe('log() of a terminal session pages the whole retained history', () => {
  it('seq 1 100000 in a PTY session: line 1 is 1, not the first line of the scrollback', async () => {
    sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({ command: 'seq', args: ['1', '100000'], pty: true });
    await s.wait({ timeoutMs: 60_000 });
    const head = await s.log({ offset: 0, limit: 3 });
    expect(head).toMatchObject({
      text: '1\n2\n3',
      offset: 0,
      totalLines: 100_000,
      droppedLines: 0,
      droppedBytes: 0,
    });
    const deep = await s.log({ offset: 50_000, limit: 2 });
    expect(deep.text).toBe('50001\n50002');
    const tail = await s.log({ limit: 2 });
    expect(tail.text).toBe('99999\n100000');
  });

  it('says exactly how much the history cap dropped, and pages from the first line it still holds', async () => {
    sessions = track(createProcessSessions({ cwd: workspace, limits: { maxOutputBytes: 200_000 } }));
    const s = await sessions.start({ command: 'seq', args: ['1', '100000'], pty: true });
    await s.wait({ timeoutMs: 60_000 });
    await waitFor(() => s.metadata().truncated, 5_000, 'truncated');
    const page = await s.log({ offset: 0, limit: 2 });
    expect(page.totalLines).toBe(100_000);
    expect(page.droppedLines).toBeGreaterThan(0);
    // Numbered from the first line ever written: line k is k + 1.
    expect(page.offset).toBe(page.droppedLines);
    expect(page.text).toBe(`${page.droppedLines + 1}\n${page.droppedLines + 2}`);
    // Bytes before that line: each of seq's lines is its digits and \r\n.
    let bytes = 0;
    for (let n = 1; n <= page.droppedLines; n += 1) bytes += String(n).length + 2;
    expect(page.droppedBytes).toBe(bytes);
    expect(page.droppedBytes).toBeGreaterThanOrEqual(s.metadata().droppedBytes);
  });

  it('pages the tail a small history cap keeps, numbered as written (a cap below one checkpoint interval)', async () => {
    sessions = track(createProcessSessions({ cwd: workspace, limits: { maxOutputBytes: 300 } }));
    const s = await sessions.start({ command: 'bash', args: ['-c', 'seq 1 2000'] });
    await s.wait({ timeoutMs: 60_000 });
    const page = await s.log({ limit: 1_000 });
    // 300 bytes hold exactly the last 60 lines of seq (5 bytes each from 1000 on).
    const numbers = Array.from({ length: 60 }, (_, i) => String(1_941 + i));
    expect(page).toEqual({
      text: numbers.join('\n'),
      offset: 1_940,
      lines: 60,
      totalLines: 2_000,
      cut: true,
      droppedLines: 1_940,
      droppedBytes: numbersBytes(1_940),
    });
  });
});

/** Bytes seq writes for its first `lines` lines: digits and a line feed each. */
function numbersBytes(lines: number): number {
  let bytes = 0;
  for (let n = 1; n <= lines; n += 1) bytes += String(n).length + 1;
  return bytes;
}

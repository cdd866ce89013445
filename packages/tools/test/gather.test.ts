import type { PollResult } from '@procmux/sessions';
import { describe, expect, it } from 'vitest';
import { formatStreams, MAX_GATHER_CHARS, OutputGatherer } from '../src/gather.js';
import { compilePattern } from '../src/pattern.js';

const poll = (stdout: string, stderr = '', droppedBytes = 0): PollResult => ({
  stdout,
  stderr,
  droppedBytes,
  state: 'running',
  exitCode: null,
  signal: null,
});

describe('OutputGatherer', () => {
  it('adds polls per stream and counts bytes the session dropped', async () => {
    const g = new OutputGatherer();
    expect(g.add(poll(''))).toBe(false);
    expect(g.add(poll('a', 'b', 7))).toBe(true);
    expect(g.add(poll('c', '', 3))).toBe(true);
    expect(g.stdout).toBe('ac');
    expect(g.stderr).toBe('b');
    expect(g.droppedBytes).toBe(10);
  });

  it('finds a match split across two chunks, and never the same text twice', async () => {
    const g = new OutputGatherer();
    g.add(poll('server listen'));
    expect(await g.search(compilePattern('listening on port \\d+'))).toBeUndefined();
    g.add(poll('ing on port 8080\n'));
    expect(await g.search(compilePattern('listening on port \\d+'))).toBe('listening on port 8080');
  });

  it('searches stderr too', async () => {
    const g = new OutputGatherer();
    g.add(poll('fine', 'Error: boom'));
    expect(await g.search(compilePattern('Error: \\w+'))).toBe('Error: boom');
  });

  it('keeps at most MAX_GATHER_CHARS per stream, dropping the oldest and counting it', async () => {
    const g = new OutputGatherer();
    g.add(poll('x'.repeat(MAX_GATHER_CHARS)));
    g.add(poll('é'.repeat(10)));
    expect(g.stdout.length).toBe(MAX_GATHER_CHARS);
    expect(g.stdout.endsWith('é'.repeat(10))).toBe(true);
    expect(g.trimmedBytes).toBe(10);
  });

  it('does not split a surrogate pair when it drops the oldest text', async () => {
    const g = new OutputGatherer();
    g.add(poll('😀'.repeat(MAX_GATHER_CHARS / 2)));
    g.add(poll('z'));
    expect(g.stdout.charCodeAt(0)).not.toBe(0xde00);
    expect(g.stdout.codePointAt(0)).toBe('😀'.codePointAt(0));
  });

  it('still finds a match after old text was dropped', async () => {
    const g = new OutputGatherer();
    g.add(poll('x'.repeat(MAX_GATHER_CHARS - 5)));
    expect(await g.search(compilePattern('ready'))).toBeUndefined();
    g.add(poll('abc ready\n'));
    expect(await g.search(compilePattern('ready'))).toBe('ready');
  });
});

describe('formatStreams', () => {
  it('puts stderr after stdout under a marker, only when there is any', () => {
    expect(formatStreams('out\n', '')).toBe('out\n');
    expect(formatStreams('', 'err\n')).toBe('[stderr]\nerr\n');
    expect(formatStreams('out', 'err')).toBe('out\n[stderr]\nerr');
    expect(formatStreams('out\n', 'err')).toBe('out\n[stderr]\nerr');
  });
});

import { describe, expect, it } from 'vitest';
import { OutputLog } from '../src/log/output-log.js';
import { SessionTranscript } from '../src/session-transcript.js';

const source = {
  id: 'proc_test',
  command: 'sh',
  args: [],
  startedAt: 1_000,
  columns: 80,
  rows: 24,
  pipe: true,
};

describe('SessionTranscript', () => {
  it('append stores, indexes and marks each chunk: page, record and the log agree', async () => {
    const t = new SessionTranscript({ log: new OutputLog() });
    expect(t.append('stdout', 'one\ntwo\n', undefined, 1_500)).toBe(8);
    t.append('stderr', '\u001b[31mthree\u001b[0m\n', undefined, 2_000);
    expect(t.log.totalBytes).toBe(8 + 15);
    const page = await t.page({ offset: 1, limit: 2 }, 1024);
    expect(page).toMatchObject({ text: 'two\nthree', offset: 1, lines: 2, totalLines: 3 });
    const events = t
      .record(source)
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line));
    expect(events).toEqual([
      [0.5, 'o', 'one\r\ntwo\r\n'],
      [1, 'o', '\u001b[31mthree\u001b[0m\r\n'],
    ]);
  });

  it('excerpt cuts the transcript to a budget, keeping head, tail and the error lines between', async () => {
    const t = new SessionTranscript({ log: new OutputLog() });
    for (let i = 0; i < 2_000; i += 1) t.append('stdout', i === 1_000 ? 'fatal: disk full\n' : `line ${i}\n`);
    const result = await t.excerpt({ budget: 1_000, empty: '(no output)' }, 4096);
    expect(result.text.length).toBeLessThanOrEqual(1_000);
    expect(result.text.startsWith('line 0\n')).toBe(true);
    expect(result.text).toContain('fatal: disk full');
    expect(result.text.trimEnd().endsWith('line 1999')).toBe(true);
    expect(result.cut?.keptErrorLines).toBe(1);
  });

  it('resize is in the recording; retire frees the log and settles', async () => {
    const t = new SessionTranscript({ log: new OutputLog(), terminal: { columns: 80, rows: 24 } });
    t.append('stdout', 'a\n', undefined, 1_000);
    t.resize(3_000, 100, 30);
    expect(t.record({ ...source, pipe: false })).toContain('[2,"r","100x30"]');
    await t.retire();
    t.end();
    expect((await t.page({}, 1024)).text).toBe('a');
  });
});

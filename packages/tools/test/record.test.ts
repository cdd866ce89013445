import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testTmpdir } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { createProcessTools } from '../src/index.js';
import { closingHarness, type Harness, idOf } from './helpers.js';

let h: Harness | undefined;
const harness = closingHarness(() => {
  h = undefined;
});

async function finished(command: string): Promise<string> {
  const id = idOf(await h!.exec({ command, mode: 'daemon' }));
  await h!.proc({ action: 'wait_for', session_id: id, exit: true, timeout: 20_000 });
  return id;
}

describe('process record', () => {
  it('writes an asciicast inside the workspace and returns its path', async () => {
    h = harness();
    const id = await finished('echo one; sleep 0.3; echo two');
    mkdirSync(join(h.root, 'casts'));
    const r = await h.proc({ action: 'record', session_id: id, path: 'casts/run.cast' });
    const path = join(realpathSync(h.root), 'casts', 'run.cast');
    expect(r.data.recording).toEqual({ path });
    const [header, ...events] = readFileSync(path, 'utf8').trimEnd().split('\n');
    const count = events.length;
    expect(r.text.split('\n')[0]).toBe(
      `Recorded ${id} to casts/run.cast (asciicast v2, ${count} event${count === 1 ? '' : 's'}; play it with asciinema play).`,
    );
    expect(JSON.parse(header!)).toMatchObject({ version: 2, width: 80, height: 24, title: id });
    // Two writes 300 ms apart are two events, unless a loaded machine read them as one chunk.
    expect(events.map((e) => (JSON.parse(e) as unknown[])[2]).join('')).toBe('one\r\ntwo\r\n');
    expect(count).toBeGreaterThanOrEqual(1);

    const byDefault = await h.proc({ action: 'record', session_id: id });
    expect(byDefault.data.recording?.path).toBe(join(realpathSync(h.root), `${id}.cast`));
  });

  it('refuses paths outside the workspace, through links, or onto a non-file', async () => {
    h = harness();
    const id = await finished('echo hi');
    const outside = realpathSync(mkdtempSync(join(testTmpdir(), 'procmux-outside-')));
    mkdirSync(join(h.root, 'dir'));
    symlinkSync(outside, join(h.root, 'out'));
    writeFileSync(join(outside, 'procmux-record-target'), 'keep');
    symlinkSync(join(outside, 'procmux-record-target'), join(h.root, 'link.cast'));
    for (const [path, code] of [
      ['../escape.cast', 'ERR_PROCESS_POLICY'],
      [join(outside, 'abs.cast'), 'ERR_PROCESS_POLICY'],
      ['out/x.cast', 'ERR_PROCESS_POLICY'],
      ['missing/x.cast', 'ERR_PROCESS_POLICY'],
      ['dir', 'ERR_PROCESS_POLICY'],
      ['link.cast', 'ERR_PROCESS_POLICY'],
      ['', 'ERR_INVALID_OPTION'],
    ] as const) {
      const r = await h.tools.process.run({ action: 'record', session_id: id, path });
      expect(r.isError, path).toBe(true);
      expect(r.data.error?.code, path).toBe(code);
    }
    expect(readFileSync(join(outside, 'procmux-record-target'), 'utf8')).toBe('keep');
  });

  it('says so when the host cannot record', async () => {
    h = harness();
    const id = await finished('echo hi');
    const sessions = h.sessions;
    const noWorkspace = createProcessTools({
      start: (r) => sessions.start(r),
      get: (i, o) => sessions.get(i, o),
      list: (o) => sessions.list(o),
    });
    const r = await noWorkspace.process.run({ action: 'record', session_id: id });
    expect(r.data.error?.code).toBe('ERR_PROCESS_UNSUPPORTED');
  });
});

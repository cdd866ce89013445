// The pieces of a lossless re-attach, without processes: records written before the terminal
// size and delivered bytes existed stay readable, malformed new fields are refused, and the
// replay stream stops at exactly the byte an earlier host delivered until the session took note.
import { RECOVERY_NAMESPACE, RECOVERY_SCHEMA_VERSION } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { BackendAdapter } from '../src/backends/backend-adapter.js';
import { parseEntry } from '../src/durable/record.js';
import { replaySink, splitAt } from '../src/durable/replay.js';

const OLD_RECORD = {
  schemaVersion: RECOVERY_SCHEMA_VERSION,
  namespace: RECOVERY_NAMESPACE,
  id: 'proc_abc1234',
  tenant: null,
  owner: null,
  replica: 'host-1',
  command: 'sh',
  args: ['-c', 'sleep 30'],
  cwd: '/tmp',
  fingerprint: 'a'.repeat(64),
  pty: true,
  stdioMode: 'pty',
  backend: 'pty-backend',
  backendRef: '{"v":1}',
  releaseOnCancel: false,
  state: 'running',
  pid: 123,
  startedAt: 1,
  expiresAt: 2,
  endedAt: null,
  exitCode: null,
  signal: null,
  reason: null,
};

const entry = (data: object) => ({
  key: 'proc_abc1234',
  data: JSON.stringify(data),
  version: 1,
  fencingToken: 1,
  updatedAt: 1,
});

describe('durable records: terminal size and delivered bytes', () => {
  it('reads a record written before the fields existed, with their defaults', () => {
    const parsed = parseEntry(entry(OLD_RECORD), null);
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.record).toMatchObject({ deliveredBytes: 0 });
    expect(parsed.ok && parsed.record.terminal).toBeUndefined();
  });

  it('reads the new fields', () => {
    const parsed = parseEntry(
      entry({ ...OLD_RECORD, terminal: { columns: 100, rows: 30 }, deliveredBytes: 4096 }),
      null,
    );
    expect(parsed.ok && parsed.record).toMatchObject({
      terminal: { columns: 100, rows: 30 },
      deliveredBytes: 4096,
    });
  });

  it("reads a sandboxed session's policy and private dir", () => {
    const sandbox = {
      write: ['/work/ws'],
      denyRead: ['/root/.ssh'],
      allowDomains: [{ host: 'example.com', port: 443 }, { host: 'x.org' }],
      privateDir: '/tmp/procmux-sandbox-Ab12Cd',
    };
    const parsed = parseEntry(entry({ ...OLD_RECORD, sandbox }), null);
    expect(parsed.ok && parsed.record.sandbox).toEqual(sandbox);
    expect(parseEntry(entry({ ...OLD_RECORD, sandbox: null }), null).ok).toBe(true);
  });

  it.each([
    ['sandbox', { write: [], denyRead: [], allowDomains: [], privateDir: '/tmp/other-dir' }],
    ['sandbox', { write: [], denyRead: [], allowDomains: [], privateDir: 'procmux-sandbox-x' }],
    ['sandbox', { write: [], denyRead: [], allowDomains: [], privateDir: '/tmp/../procmux-sandbox-x' }],
    [
      'sandbox',
      { write: ['relative'], denyRead: [], allowDomains: [], privateDir: '/tmp/procmux-sandbox-x' },
    ],
    [
      'sandbox',
      {
        write: [],
        denyRead: [],
        allowDomains: [{ host: 'x', port: 0 }],
        privateDir: '/tmp/procmux-sandbox-x',
      },
    ],
    [
      'sandbox',
      { write: [], denyRead: [], allowDomains: [], privateDir: '/tmp/procmux-sandbox-x', env: 'x' },
    ],
    ['sandbox', { write: [], denyRead: [], privateDir: '/tmp/procmux-sandbox-x' }],
    ['deliveredBytes', -1],
    ['deliveredBytes', 1.5],
    ['deliveredBytes', '10'],
    ['terminal', { columns: 0, rows: 30 }],
    ['terminal', { columns: 100 }],
    ['terminal', { columns: 100, rows: 30, env: 'x' }],
    ['terminal', [100, 30]],
  ])('drops a record whose %s is malformed (%j)', (field, value) => {
    const parsed = parseEntry(entry({ ...OLD_RECORD, [field]: value }), null);
    expect(parsed).toMatchObject({ ok: false, code: 'ERR_RECOVERY_UNTRUSTED' });
    expect(parsed.ok || parsed.reason).toContain(field);
  });
});

function fakeAdapter() {
  const handle = { write() {}, signal() {}, kill() {}, wait: () => new Promise<never>(() => {}) };
  const adapter = new BackendAdapter(handle, 'pty');
  const got: string[] = [];
  adapter.onStdout((chunk) => got.push(chunk));
  return { adapter, got };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('replaySink', () => {
  it('splits at the floor, waits for the session to take note, then goes on in order', async () => {
    const replay = replaySink();
    replay.sink.stdout('line-1\nline-2\n');
    replay.sink.stdout('line-3\nline-é\n');
    const { adapter, got } = fakeAdapter();
    let release!: () => void;
    const noted: string[][] = [];
    replay.connect(adapter, 'line-1\nline-2\nline-3\n'.length, () => {
      noted.push([...got]);
      return new Promise<void>((r) => (release = r));
    });
    await tick();
    await tick();
    // Everything up to the floor, exactly; the rest is held.
    expect(noted).toEqual([['line-1\nline-2\n', 'line-3\n']]);
    replay.sink.stdout('line-5\n');
    await tick();
    expect(got.join('')).toBe('line-1\nline-2\nline-3\n');
    release();
    await tick();
    expect(got.join('')).toBe('line-1\nline-2\nline-3\nline-é\nline-5\n');
  });

  it('with floor 0 never asks the session, and delivers everything', async () => {
    const replay = replaySink();
    replay.sink.stdout('a');
    const { adapter, got } = fakeAdapter();
    let asked = 0;
    replay.connect(adapter, 0, async () => {
      asked += 1;
    });
    await tick();
    await tick();
    replay.sink.stdout('b');
    expect(got.join('')).toBe('ab');
    expect(asked).toBe(0);
  });

  it('a stream that ends short of the floor still lets the session go on', async () => {
    const replay = replaySink();
    replay.sink.stdout('short');
    const { adapter } = fakeAdapter();
    let asked = 0;
    replay.connect(adapter, 1_000, async () => {
      asked += 1;
    });
    await tick();
    await tick();
    expect(asked).toBe(0);
    replay.end();
    expect(asked).toBe(1);
  });

  it('splitAt never cuts a character', () => {
    expect(splitAt('aé€b', 1)).toEqual(['a', 'é€b']);
    expect(splitAt('aé€b', 2)).toEqual(['aé', '€b']);
    expect(splitAt('aé€b', 4)).toEqual(['aé€', 'b']);
    expect(splitAt('ab', 10)).toEqual(['ab', '']);
  });
});

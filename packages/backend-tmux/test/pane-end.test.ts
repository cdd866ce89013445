// The end as the files tell it, against a world where the hook and the log writer run between
// any two of the host's reads (the host's thread can be descheduled for as long as they take).
import { describe, expect, it } from 'vitest';
import { type EndFiles, type PaneEnd, readPaneEnd } from '../src/pane-end.js';

const files = { exit: '/s/exit', eof: '/s/eof', failed: '/s/failed' };

type Write = [string, string];

/** The hook's writes as a pane ends: the exit file truncated, then its status. */
const hook = (status: string): Write[] => [
  [files.exit, ''],
  [files.exit, status],
];

/** Every order of two processes' writes, each keeping its own order. */
function merges(a: Write[], b: Write[]): Write[][] {
  if (a.length === 0) return [b];
  if (b.length === 0) return [a];
  const [x, ...restA] = a as [Write, ...Write[]];
  const [y, ...restB] = b as [Write, ...Write[]];
  return [...merges(restA, b).map((m) => [x, ...m]), ...merges(a, restB).map((m) => [y, ...m])];
}

/** A disk that applies `steps[i]` writes of the world after the host's i-th read. */
function world(writes: Write[], steps: number[]): EndFiles & { finish(): void } {
  const disk = new Map<string, string>();
  let calls = 0;
  let applied = 0;
  const after = () => {
    const n = steps[calls] ?? 0;
    calls += 1;
    for (let i = 0; i < n && applied < writes.length; i += 1) {
      const [path, text] = writes[applied] as Write;
      disk.set(path, text);
      applied += 1;
    }
  };
  return {
    exists(path) {
      const there = disk.has(path);
      after();
      return there;
    },
    read(path) {
      const text = disk.get(path);
      after();
      return text;
    },
    finish() {
      for (const [path, text] of writes.slice(applied)) disk.set(path, text);
      applied = writes.length;
    },
  };
}

/** Every way of spreading the world's writes over the host's three reads. */
function schedules(total: number): number[][] {
  const out: number[][] = [];
  for (let a = 0; a <= total; a += 1)
    for (let b = 0; a + b <= total; b += 1) for (let c = 0; a + b + c <= total; c += 1) out.push([a, b, c]);
  return out;
}

describe('readPaneEnd', () => {
  it('never calls a pane that exited lost, wherever its end falls between the reads', () => {
    for (const status of ['0:\n', ':9\n']) {
      // The hook ends the tmux session after the status: the writer's end mark follows.
      const writes: Write[] = [...hook(status), [files.eof, '']];
      for (const steps of schedules(writes.length)) {
        const disk = world(writes, steps);
        const end = readPaneEnd(files, disk);
        expect(['running', 'exited'], `writes after reads: ${steps.join(',')}`).toContain(end.kind);
        // Once every write is down, the next look sees the end, whole.
        disk.finish();
        expect(readPaneEnd(files, disk)).toMatchObject({ kind: 'exited', eof: true });
      }
    }
  });

  it('never calls a failed log a whole exit, whatever the writer and the hook do between the reads', () => {
    // The writer fails on the last bytes (failed, then its end mark) while the hook writes the status.
    const writer: Write[] = [
      [files.failed, ''],
      [files.eof, ''],
    ];
    for (const writes of merges(writer, hook('0:\n'))) {
      for (const steps of schedules(writes.length)) {
        const disk = world(writes, steps);
        const end = readPaneEnd(files, disk);
        const order = `${writes.map(([path, text]) => `${path}=${JSON.stringify(text)}`).join(' ')} / ${steps.join(',')}`;
        expect(['running', 'failed', 'exited'], order).toContain(end.kind);
        // A status read before the end mark is not whole: the pane's end checks the mark again.
        if (end.kind === 'exited') expect(end.eof, order).toBe(false);
        disk.finish();
        expect(readPaneEnd(files, disk).kind).toBe('failed');
      }
    }
  });

  it('tells the exit status, the failed log, the hook before the reap, a lost session and a running one', () => {
    const on = (entries: Record<string, string>): EndFiles => ({
      exists: (p) => p in entries,
      read: (p) => entries[p],
    });
    const cases: Array<[Record<string, string>, PaneEnd]> = [
      [
        { [files.exit]: '7:\n', [files.eof]: '' },
        { kind: 'exited', status: { exitCode: 7, signal: null }, eof: true },
      ],
      [{ [files.exit]: ':15\n' }, { kind: 'exited', status: { exitCode: null, signal: 15 }, eof: false }],
      [{ [files.exit]: '0:\n', [files.failed]: '', [files.eof]: '' }, { kind: 'failed' }],
      [{ [files.failed]: '' }, { kind: 'failed' }],
      [{ [files.exit]: ':\n' }, { kind: 'unreaped', eof: false }],
      [
        { [files.exit]: ':\n', [files.eof]: '' },
        { kind: 'unreaped', eof: true },
      ],
      [{ [files.eof]: '' }, { kind: 'lost' }],
      [{ [files.exit]: '', [files.eof]: '' }, { kind: 'lost' }],
      [{}, { kind: 'running' }],
      [{ [files.exit]: '' }, { kind: 'running' }],
    ];
    for (const [entries, end] of cases)
      expect(readPaneEnd(files, on(entries)), JSON.stringify(entries)).toEqual(end);
  });
});

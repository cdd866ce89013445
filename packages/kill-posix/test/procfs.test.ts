import { spawn } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { checkLeaksAfterAll, testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import {
  markerFromEnviron,
  markerOf,
  parseProcStat,
  procAlive,
  procGroup,
  readProcFile,
  readProcTable,
} from '../src/procfs.js';

// Fields 3..22 of a stat line: state S, ppid 7, pgid 8, session, ..., starttime 4242 (field 22).
const TAIL = 'S 7 8 8 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 4242 1000 100';

describe('parseProcStat', () => {
  it('counts fields from the last parenthesis, so any command name parses', () => {
    expect(parseProcStat(`12 (a) b (c) ${TAIL}`)).toEqual({ state: 'S', ppid: 7, pgid: 8, startTime: 4242 });
    expect(parseProcStat(`12 (sleep) ${TAIL.replace('S', 'Z')}`)?.state).toBe('Z');
  });

  it('is undefined for text that is not a stat line', () => {
    expect(parseProcStat('')).toBeUndefined();
    expect(parseProcStat(`xx${TAIL}`)).toBeUndefined(); // no command name in parentheses
    expect(parseProcStat('12 (x) S 7')).toBeUndefined();
  });

  it('is undefined when any one field it needs is missing or not an integer', () => {
    const fields = TAIL.split(' ');
    const withField = (index: number, value: string) =>
      `12 (x) ${fields.map((f, i) => (i === index ? value : f)).join(' ')}`;
    expect(parseProcStat(withField(0, ''))).toBeUndefined(); // state
    expect(parseProcStat(withField(1, 'x'))).toBeUndefined(); // ppid
    expect(parseProcStat(withField(2, '8.5'))).toBeUndefined(); // pgid
    expect(parseProcStat(withField(19, 'x'))).toBeUndefined(); // starttime
    expect(parseProcStat(withField(3, 'x'))).toEqual({ state: 'S', ppid: 7, pgid: 8, startTime: 4242 });
  });
});

describe('markerFromEnviron', () => {
  const env = (...entries: string[]) => Buffer.from(entries.join('\0'));

  it('finds the marker first, last or in the middle', () => {
    expect(markerFromEnviron(env('PROCMUX_TREE=a-1', 'B=2', ''))).toBe('a-1');
    expect(markerFromEnviron(env('A=1', 'PROCMUX_TREE=b-2', 'B=2'))).toBe('b-2');
    expect(markerFromEnviron(env('A=1', 'PROCMUX_TREE=c-3'))).toBe('c-3');
  });

  it('reads the name it is asked for', () => {
    expect(markerFromEnviron(env('A=1', 'OTHER=o-1'), 'OTHER')).toBe('o-1');
    expect(markerFromEnviron(env('OTHER=o-1'))).toBeUndefined();
  });

  it('does not mistake a longer name that ends the same way', () => {
    expect(markerFromEnviron(env('MY_PROCMUX_TREE=no', 'A=1'))).toBeUndefined();
    expect(markerFromEnviron(env('MY_PROCMUX_TREE=no', 'PROCMUX_TREE=yes'))).toBe('yes');
    expect(markerFromEnviron(env('A=PROCMUX_TREE=no'))).toBeUndefined();
  });
});

describe('markerOf', () => {
  const marked = Buffer.from('A=1\0PROCMUX_TREE=t1\0');

  it('reads an environment that came back empty once more: a process caught mid-exec keeps its marker', () => {
    const reads = [Buffer.alloc(0), marked];
    let calls = 0;
    expect(markerOf(() => reads[calls++]!, true)).toBe('t1');
    expect(calls).toBe(2);
  });

  it('waits, 1 ms at a time, for a process still inside its exec (its command line empty too)', () => {
    let reads = 0;
    const pauses: number[] = [];
    const marker = markerOf(
      () => (++reads < 6 ? Buffer.alloc(0) : marked),
      true,
      () => true,
      (ms) => pauses.push(ms),
    );
    expect(marker).toBe('t1');
    expect(reads).toBe(6);
    expect(pauses).toEqual([1, 1, 1, 1]);
  });

  it('does not wait for a process that runs with an empty environment (env -i), nor forever', () => {
    let reads = 0;
    let pauses = 0;
    const empty = () => {
      reads += 1;
      return Buffer.alloc(0);
    };
    expect(
      markerOf(
        empty,
        true,
        () => false,
        () => pauses++,
      ),
    ).toBeUndefined();
    expect([reads, pauses]).toEqual([2, 0]);
    reads = 0;
    expect(
      markerOf(
        empty,
        true,
        () => true,
        () => pauses++,
      ),
    ).toBeUndefined();
    expect(reads).toBe(51);
    expect(pauses).toBe(49);
  });

  it('reads a kernel thread once, and a marked environment once', () => {
    let calls = 0;
    expect(
      markerOf(() => {
        calls += 1;
        return Buffer.alloc(0);
      }, false),
    ).toBeUndefined();
    expect(calls).toBe(1);
    calls = 0;
    expect(
      markerOf(() => {
        calls += 1;
        return marked;
      }, true),
    ).toBe('t1');
    expect(calls).toBe(1);
  });

  it.runIf(process.platform === 'linux')(
    'why: an environ opened before a real exec reads empty after it, a fresh open does not',
    async () => {
      const child = spawn('sh', ['-c', 'read x; exec sleep 30'], {
        env: { PROCMUX_TREE: 'mid-exec', PATH: process.env.PATH },
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      try {
        const pid = child.pid!;
        const fd = openSync(`/proc/${pid}/environ`, 'r');
        try {
          child.stdin.write('go\n');
          const cmdline = () => readFileSync(`/proc/${pid}/cmdline`, 'latin1');
          while (!cmdline().startsWith('sleep')) await new Promise((resolve) => setImmediate(resolve));
          const stale = Buffer.alloc(4096);
          expect(readSync(fd, stale, 0, stale.length, null)).toBe(0);
        } finally {
          closeSync(fd);
        }
        expect(markerFromEnviron(readProcFile(`/proc/${pid}/environ`))).toBe('mid-exec');
      } finally {
        child.kill('SIGKILL');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    },
  );
});

describe('the /proc table', () => {
  const root = mkdtempSync(join(testTmpdir(), 'fake-proc-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const proc = (pid: string, stat: string | undefined, environ?: string) => {
    mkdirSync(join(root, pid));
    if (stat !== undefined) writeFileSync(join(root, pid, 'stat'), stat);
    if (environ !== undefined) writeFileSync(join(root, pid, 'environ'), environ);
  };
  proc('10', `10 (bash) ${TAIL}`, 'A=1\0PROCMUX_TREE=m-1\0');
  proc('11', `11 (no environ) ${TAIL}`);
  proc('12', `12 (zombie) ${TAIL.replace('S', 'Z')}`);
  proc('13', undefined); // exited while we read it
  // An environment far over the 16 KiB read buffer, the marker at its very end.
  proc('14', `14 (big env) ${TAIL}`, `${'X=y\0'.repeat(50_000)}PROCMUX_TREE=m-big\0`);
  proc('self', `99 (self) ${TAIL}`);

  it('reads state, parent, group, start time and marker of every numbered entry', () => {
    const table = readProcTable(root).sort((a, b) => a.pid - b.pid);
    expect(table).toEqual([
      { pid: 10, state: 'S', ppid: 7, pgid: 8, startTime: 4242, marker: 'm-1' },
      { pid: 11, state: 'S', ppid: 7, pgid: 8, startTime: 4242, marker: undefined },
      { pid: 12, state: 'Z', ppid: 7, pgid: 8, startTime: 4242, marker: undefined },
      { pid: 14, state: 'S', ppid: 7, pgid: 8, startTime: 4242, marker: 'm-big' },
    ]);
  });

  it('reads a file whole through its one buffer, however big, and a small one after it', () => {
    expect(readProcFile(join(root, '14', 'environ')).length).toBe(200_000 + 'PROCMUX_TREE=m-big\0'.length);
    expect(readProcFile(join(root, '10', 'environ')).toString()).toBe('A=1\0PROCMUX_TREE=m-1\0');
    expect(readProcFile(join(root, '10', 'stat')).toString()).toBe(`10 (bash) ${TAIL}`);
    expect(() => readProcFile(join(root, '13', 'stat'))).toThrow(/ENOENT/);
  });

  it('calls a process alive only while it runs as the same process', () => {
    const entry = { pid: 10, ppid: 7, pgid: 8, state: 'S', startTime: 4242, marker: undefined };
    expect(procAlive(entry, root)).toBe(true);
    expect(procAlive({ ...entry, startTime: undefined }, root)).toBe(true);
    expect(procAlive({ ...entry, startTime: 1 }, root)).toBe(false); // the pid was reused
    expect(procAlive({ ...entry, pid: 12 }, root)).toBe(false); // zombie
    expect(procAlive({ ...entry, pid: 13 }, root)).toBe(false); // gone
  });

  it('reads the group a process is in now, only while it is the same process', () => {
    const entry = { pid: 10, ppid: 7, pgid: 99, state: 'S', startTime: 4242, marker: undefined };
    expect(procGroup(entry, root)).toBe(8); // the file's group, not the entry's old one
    expect(procGroup({ ...entry, startTime: 1 }, root)).toBeUndefined(); // the pid was reused
    expect(procGroup({ ...entry, pid: 13 }, root)).toBeUndefined(); // gone
    const self = readProcTable().find((e) => e.pid === process.pid)!;
    expect(procGroup(self)).toBe(self.pgid);
  });

  it('reads the real /proc, ourselves included', () => {
    const self = readProcTable().find((e) => e.pid === process.pid);
    expect(self?.ppid).toBe(process.ppid);
    expect(self && procAlive(self)).toBe(true);
  });
});

checkLeaksAfterAll();

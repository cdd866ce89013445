// The /proc formats at their edges: a truncated or odd line is no answer, never a wrong one.
import { describe, expect, it } from 'vitest';
import { fdSetMembers, parseStat, parseSyscall, pollReaders, ptsPath } from '../../src/input-wait/procfs.js';

/** A struct pollfd array: [fd, events] per entry, 8 bytes each (revents 0). */
function pollfds(entries: [fd: number, events: number][], extraBytes = 0): Uint8Array {
  const bytes = new Uint8Array(entries.length * 8 + extraBytes);
  const view = new DataView(bytes.buffer);
  entries.forEach(([fd, events], i) => {
    view.setInt32(i * 8, fd, true);
    view.setInt16(i * 8 + 4, events, true);
  });
  return bytes;
}

describe('parseStat at the edges', () => {
  it('a line cut inside the command name (no closing parenthesis) is no stat', () => {
    expect(parseStat('5 (x S 1 2 3 4 5 6')).toBeUndefined();
  });

  it('needs the six fields up to tpgid after the name; exactly six is enough', () => {
    expect(parseStat('10 (x) S 1 10 10 0\n')).toBeUndefined();
    expect(parseStat('10 (x) S 1 10 10 34816 20')).toEqual({
      pid: 10,
      state: 'S',
      ppid: 1,
      pgrp: 10,
      session: 10,
      ttyNr: 34816,
      tpgid: 20,
    });
  });

  it('a line that does not start with a pid is no stat', () => {
    expect(parseStat('x (y) S 1 2 3 4 5 6')).toBeUndefined();
  });
});

describe('parseSyscall at the edges', () => {
  it('a line whose first word is no call number is not a blocked call', () => {
    expect(parseSyscall('garbage 0x1 0x2')).toBeUndefined();
    expect(parseSyscall('0 0xzz')).toBeUndefined();
  });
});

describe('ptsPath at the edges', () => {
  it('majors 136 to 143 are ptys, 144 is not', () => {
    expect(ptsPath(143 << 8)).toBe('/dev/pts/1792');
    expect(ptsPath(144 << 8)).toBeUndefined();
    expect(ptsPath(135 << 8)).toBeUndefined();
  });
});

describe('fdSetMembers at the edges', () => {
  it('reads only the first nfds bits, even when the bytes hold more', () => {
    expect(fdSetMembers(Uint8Array.of(0xff), 3)).toEqual([0, 1, 2]);
    expect(fdSetMembers(Uint8Array.of(0, 0b10), 10)).toEqual([9]);
  });
});

describe('pollReaders at the edges', () => {
  it('reads every entry of the array, the last one too, at its own offset', () => {
    expect(
      pollReaders(
        pollfds([
          [5, 1],
          [7, 1],
        ]),
        2,
      ),
    ).toEqual([5, 7]);
  });

  it('reads no more entries than asked, even when the bytes hold more', () => {
    expect(
      pollReaders(
        pollfds([
          [5, 1],
          [7, 1],
        ]),
        1,
      ),
    ).toEqual([5]);
  });

  it('a short array is read only as far as whole entries go', () => {
    expect(pollReaders(pollfds([[5, 1]]), 3)).toEqual([5]);
    // Two entries and half a third: the half is not read.
    expect(
      pollReaders(
        pollfds(
          [
            [5, 1],
            [6, 1],
          ],
          4,
        ),
        3,
      ),
    ).toEqual([5, 6]);
  });

  it('fd 0 (stdin) counts; a negative fd (an entry poll skips) does not', () => {
    expect(
      pollReaders(
        pollfds([
          [0, 1],
          [-1, 1],
        ]),
        2,
      ),
    ).toEqual([0]);
  });

  it('POLLPRI and POLLRDNORM are reads as well as POLLIN', () => {
    expect(
      pollReaders(
        pollfds([
          [3, 2],
          [4, 0x40],
          [5, 4],
        ]),
        3,
      ),
    ).toEqual([3, 4]);
  });
});

// The scan that finds refusal lines in a session's output: it hands on every line holding a
// refusal word however the output is cut into chunks, and reads most of a flood only through
// String#indexOf from a character the flood lacks.
import { describe, expect, it } from 'vitest';
import { LineScanner, REFUSAL_WORDS } from '../src/violations.js';
import { rarestSuffix, WordFinder } from '../src/word-finder.js';

/** A deterministic pseudo-random sequence (a test must fail the same way twice). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const FILLER = [
  'procmux bench 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJK',
  '\x1b[1;32mINFO\x1b[0m worker-3: processed item 42 in 1.5 ms',
  'Permission granted; the file system is read-only elsewhere, no such thing as a process',
  'E R O F S and EPER M are not words here; Operation permitted',
];
const ERRORS = [
  "cat: '/root/.ssh/id_rsa': Permission denied",
  'bash: line 1: /etc/hosts: Read-only file system',
  "Error: EROFS: read-only file system, open '/opt/z'",
  'bash: kill: (4242) - No such process',
  'PermissionError: [Errno 1] Operation not permitted',
  "Error: EACCES: permission denied, open '/x'",
  'gojq: error: open /root/.ssh/id: permission denied',
];

function output(rand: () => number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const r = rand();
    if (r < 0.05) out.push(ERRORS[Math.floor(rand() * ERRORS.length)]!);
    else if (r < 0.07) out.push('y'.repeat(Math.floor(rand() * 6000)));
    else if (r < 0.08) out.push(`${'z'.repeat(5000)} ${ERRORS[0]}`);
    else out.push(FILLER[Math.floor(rand() * FILLER.length)]!);
  }
  return out.join('\n') + (rand() < 0.5 ? '\n' : '');
}

/** Cuts `text` into chunks of random sizes: one character, a few, or tens of KiB. */
function chunks(text: string, rand: () => number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    const r = rand();
    const size = r < 0.2 ? 1 : r < 0.6 ? 1 + Math.floor(rand() * 40) : 1 + Math.floor(rand() * 70_000);
    out.push(text.slice(at, at + size));
    at += size;
  }
  return out;
}

/** What every line with a word in it reads, as the scanner hands it on (4 KiB cut for long ones). */
function expectedLines(text: string): string[] {
  return text.split('\n').filter((line) => REFUSAL_WORDS.some((word) => line.includes(word)));
}

describe('LineScanner', () => {
  it('hands on every line holding a refusal word, however the output is cut', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rand = random(seed);
      const text = output(rand, 400);
      const seen: string[] = [];
      const scanner = new LineScanner((line) => seen.push(line), REFUSAL_WORDS);
      for (const chunk of chunks(text, rand)) scanner.feed(chunk);
      scanner.flush();
      const found = seen.filter((line) => REFUSAL_WORDS.some((word) => line.includes(word)));
      // A line over 4 KiB is handed on once its held part exceeds that: its word is there.
      const cut = (line: string) => (line.length > 4096 ? line.slice(-60) : line);
      expect(found.map(cut), `seed ${seed}`).toEqual(expectedLines(text).map(cut));
    }
  });

  it('hands on no line of output without a refusal word', () => {
    const seen: string[] = [];
    const scanner = new LineScanner((line) => seen.push(line), REFUSAL_WORDS);
    for (let i = 0; i < 200; i++) scanner.feed(`${FILLER.join('\n')}\n`);
    scanner.flush();
    expect(seen).toEqual([]);
  });

  it('finds a word split over two chunks, and a line ending in a later chunk', () => {
    const seen: string[] = [];
    const scanner = new LineScanner((line) => seen.push(line), REFUSAL_WORDS);
    scanner.feed('x'.repeat(10_000));
    scanner.feed('\nab: Permission de');
    scanner.feed('nied\nok\ncd: Operation not perm');
    scanner.feed('itted');
    expect(seen).toEqual(['ab: Permission denied']);
    scanner.flush();
    expect(seen).toEqual(['ab: Permission denied', 'cd: Operation not permitted']);
  });
});

describe('WordFinder', () => {
  it('searches each word from the character rarest in the text', () => {
    const counts = new Uint16Array(128);
    for (const c of 'procmux bench 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJK')
      counts[c.charCodeAt(0)]! += 1;
    // P, N and O are not in the flood line: the whole word; 'ead-only...' from its '-'.
    expect(rarestSuffix('Permission denied', counts)).toBe('Permission denied');
    expect(rarestSuffix('ead-only file system', counts)).toBe('-only file system');
    expect(rarestSuffix('EROFS', counts)).toBe('ROFS');
    // In base64 every letter is common and neither '-' nor ' ' is there.
    const rand = random(7);
    const bytes = Buffer.from(Array.from({ length: 3000 }, () => Math.floor(rand() * 256)));
    const b64 = new Uint16Array(128);
    for (const c of bytes.toString('base64')) b64[c.charCodeAt(0)]! += 1;
    expect(rarestSuffix('Permission denied', b64)).toBe(' denied');
  });

  it('finds every occurrence of every word, at the offset of the part it searched', () => {
    const finder = new WordFinder(['Permission denied', 'EPERM']);
    const text = `a\nPermission denied\nEPERM x Permission denied\n${'q'.repeat(300_000)}EPERM`;
    const found = finder.find(text);
    for (const [word, at] of [
      ['Permission denied', 2],
      ['EPERM', 20],
      ['Permission denied', 28],
      ['EPERM', 45 + 300_000],
    ] as const) {
      expect(found.some((offset) => offset >= at && offset < at + word.length)).toBe(true);
    }
  });
});

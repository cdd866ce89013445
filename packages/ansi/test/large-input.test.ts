import { describe, expect, it } from 'vitest';
import { createAnsiStripper, createDsrStripper, stripAnsi, TerminalModeTracker } from '../src/index.js';

const MiB = 1024 * 1024;

/** ~10 MB of log output: mostly plain, with colours, titles, CRLF and progress bars mixed in. */
function logOutput(): { raw: string; plain: string } {
  const raw: string[] = [];
  const plain: string[] = [];
  let size = 0;
  for (let i = 0; size < 10 * MiB; i++) {
    const text = `${i} INFO request handled in ${i % 97} ms path=/api/v1/items/${i * 7} status=200 ok`;
    let line = `${text}\n`;
    if (i % 50 === 0) line = `\x1b[3${i % 8}m${text.slice(0, 10)}\x1b[0m${text.slice(10)}\n`;
    if (i % 1000 === 0) line = `\x1b]0;worker ${i}\x07${line}`;
    if (i % 333 === 0) line = line.replace('\n', '\r\n');
    if (i % 5000 === 0) line = `[  ] 0%\r[= ] 50%\r\x1b[K${line}`;
    raw.push(line);
    plain.push(`${text}\n`);
    size += line.length;
  }
  return { raw: raw.join(''), plain: plain.join('') };
}

describe('large inputs', () => {
  const { raw, plain } = logOutput();

  it('strips 10 MB of mostly plain output whole and in 64 KiB chunks', () => {
    expect(raw.length).toBeGreaterThan(10 * MiB);
    expect(stripAnsi(raw)).toBe(plain);

    const stripper = createAnsiStripper();
    const parts: string[] = [];
    for (let at = 0; at < raw.length; at += 64 * 1024)
      parts.push(stripper.push(raw.slice(at, at + 64 * 1024)));
    parts.push(stripper.flush());
    expect(parts.join('')).toBe(plain);
  });

  // CPU-bound: the timeout guards against a hang, with room for a machine loaded many times over.
  it('strips a 10 MB line with an escape every few words, without newlines', () => {
    const words = Array.from({ length: 2_000_000 }, (_, i) => `w${i % 10}`);
    const line = words.map((word, i) => (i % 2 === 0 ? `\x1b[1m${word}\x1b[0m` : word)).join(' ');
    expect(line.length).toBeGreaterThan(10 * MiB);
    const plain = words.join(' ');
    expect(stripAnsi(line)).toBe(plain);
    // A carriage return at the end rewrites only the last 4,096-unit row, as at a terminal's margin.
    const lastRow = plain.length - (plain.length % 4096 || 4096);
    const rewritten = `${plain.slice(0, lastRow)}XXXXXXXXXX${plain.slice(lastRow + 10)}`;
    expect(stripAnsi(`${line}\rXXXXXXXXXX`)).toBe(rewritten);
  }, 240_000);

  it('scans 10 MB for queries and modes', () => {
    const dsr = createDsrStripper();
    const modes = new TerminalModeTracker();
    let count = 0;
    for (let at = 0; at < raw.length; at += 64 * 1024) {
      const chunk = raw.slice(at, at + 64 * 1024);
      count += dsr.push(chunk).count;
      modes.feed(chunk);
    }
    expect(count).toBe(0);
    expect(modes.bracketedPaste).toBe(false);
    modes.feed('\x1b[?2004h');
    expect(modes.bracketedPaste).toBe(true);
  });
});

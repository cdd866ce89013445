import { describe, expect, it } from 'vitest';
import { LiveText } from '../../src/screen/live-text.js';

function reads(chunks: string[], endAfterLast = false): string[] {
  const text = new LiveText();
  return chunks.map((chunk, i) => text.read(chunk, endAfterLast && i === chunks.length - 1));
}

describe('LiveText', () => {
  it('shows a prompt that has no newline yet', () => {
    expect(reads(['\x1b[32mpassword:\x1b[0m '])).toEqual(['password: ']);
  });

  it('continues a line that only grew, so reads concatenate to the text', () => {
    const parts = reads(['>>> ', 'print(1)', '\r\n1\n>>> ']);
    expect(parts).toEqual(['>>> ', 'print(1)', '\n1\n>>> ']);
    expect(parts.join('')).toBe('>>> print(1)\n1\n>>> ');
  });

  it('puts a rewritten line on a line of its own', () => {
    expect(reads(['10%', '\r50%', '\r100%\n'])).toEqual(['10%', '\n50%', '\n100%\n']);
  });

  it('keeps whole lines as they come when nothing was shown early', () => {
    expect(reads(['a\nb\n', 'c\n'])).toEqual(['a\nb\n', 'c\n']);
  });

  it('flushes what is left when the stream ends', () => {
    expect(reads(['half', ' done'], true)).toEqual(['half', ' done']);
    expect(reads(['x\x1b[3'], true)).toEqual(['x']);
  });
});

import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { CaptureBuffer } from '../src/capture.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('CaptureBuffer', () => {
  it('keeps everything under the cap', () => {
    const capture = new CaptureBuffer(100);
    capture.append('hello ');
    capture.append('');
    capture.append('world');
    expect(capture.text()).toBe('hello world');
    expect(capture.truncated).toBe(false);
  });

  it('drops the oldest bytes first', () => {
    const capture = new CaptureBuffer(5);
    capture.append('abc');
    capture.append('defg');
    expect(capture.text()).toBe('cdefg');
    expect(capture.truncated).toBe(true);
  });

  it('drops a character the cut would split', () => {
    const capture = new CaptureBuffer(5);
    capture.append('a€b€'); // 1 + 3 + 1 + 3 bytes
    expect(capture.text()).toBe('b€');
  });

  it('says it was truncated before the text is read', () => {
    const capture = new CaptureBuffer(4);
    capture.append('ab');
    capture.append('c€'); // 6 bytes in 4 units: only measuring finds the cut
    expect(capture.truncated).toBe(true);
    expect(capture.text()).toBe('c€');
  });

  it('keeps a single chunk far larger than the cap only as far as the cap', () => {
    const capture = new CaptureBuffer(6);
    capture.append(`${'x'.repeat(1000)}é€`);
    capture.append('!');
    expect(capture.truncated).toBe(true);
    expect(capture.text()).toBe('é€!');
  });

  it('keeps the longest whole-character suffix within the cap, whatever the chunks', () => {
    const text = fc.string({ unit: 'binary', maxLength: 20 });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 12 }), fc.integer({ min: 0, max: 60 }), (chunks, max) => {
        const capture = new CaptureBuffer(max);
        for (const chunk of chunks) capture.append(chunk);
        const whole = Buffer.from(chunks.join(''), 'utf8').toString('utf8');
        const kept = capture.text();
        expect(whole.endsWith(kept)).toBe(true);
        expect(bytes(kept)).toBeLessThanOrEqual(max);
        expect(capture.truncated).toBe(bytes(whole) > max);
        // One more character from the whole text would not have fitted.
        if (kept.length < whole.length) {
          const previous = [...whole.slice(0, whole.length - kept.length)].pop()!;
          expect(bytes(previous + kept)).toBeGreaterThan(max);
        }
      }),
    );
  });
});

describe('CaptureBuffer: memory and the flag', () => {
  it('says truncated once a whole chunk was dropped, though what is left fits', () => {
    const capture = new CaptureBuffer(5);
    capture.append('abcde');
    capture.append('fghij');
    expect(capture.truncated).toBe(true);
    expect(capture.text()).toBe('fghij');
  });

  it('with a cap of 0 an empty chunk truncates nothing, any other one does', () => {
    const capture = new CaptureBuffer(0);
    capture.append('');
    expect(capture.truncated).toBe(false);
    capture.append('x');
    expect(capture.truncated).toBe(true);
    expect(capture.text()).toBe('');
  });

  it('holds no more than the cap while ASCII chunks stream in, measuring no byte', () => {
    const measure = vi.spyOn(Buffer, 'byteLength');
    try {
      const capture = new CaptureBuffer(100);
      for (let i = 0; i < 1000; i++) {
        capture.append(String(i % 10).repeat(10));
        expect(capture.heldUnits).toBe(Math.min(100, 10 * (i + 1)));
      }
      expect(measure).not.toHaveBeenCalled();
      expect(capture.text()).toBe(
        '0123456789'
          .split('')
          .map((d) => d.repeat(10))
          .join(''),
      );
      measure.mockClear();
      expect(capture.truncated).toBe(true);
      expect(measure).not.toHaveBeenCalled();
    } finally {
      measure.mockRestore();
    }
  });

  it('holds at most twice the cap whatever the chunk sizes, and the newest bytes', () => {
    const capture = new CaptureBuffer(100);
    for (let i = 0; i < 50; i++) {
      capture.append(`${'€'.repeat(400)}${i}`);
      capture.append('é'.repeat(i));
      expect(capture.heldUnits).toBeLessThanOrEqual(200);
    }
    const text = capture.text();
    expect(text.endsWith(`49${'é'.repeat(49)}`)).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(100);
    expect(Buffer.byteLength(text)).toBeGreaterThan(97);
  });
});

describe('CaptureBuffer: after a cut', () => {
  it('keeps counting right after a read cut whole chunks, so later appends drop nothing that fits', () => {
    const capture = new CaptureBuffer(10);
    capture.append('€€€'); // 9 bytes in 3 units
    capture.append('x');
    capture.append('€€€');
    expect(capture.text()).toBe('x€€€');
    capture.append('yyyyyy');
    expect(capture.text()).toBe('€yyyyyy');
  });
});

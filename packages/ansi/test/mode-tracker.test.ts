import { describe, expect, it } from 'vitest';
import { TerminalModeTracker } from '../src/index.js';

interface Modes {
  paste: boolean;
  keys: boolean;
}

function modesAfter(chunks: string[]): Modes {
  const tracker = new TerminalModeTracker();
  for (const chunk of chunks) tracker.feed(chunk);
  return { paste: tracker.bracketedPaste, keys: tracker.applicationCursorKeys };
}

/** Every way to cut text into one, two or three chunks. */
function* everySplit(text: string): Generator<string[]> {
  for (let a = 0; a <= text.length; a++) {
    for (let b = a; b <= text.length; b++) yield [text.slice(0, a), text.slice(a, b), text.slice(b)];
  }
}

const BOTH_ON = { paste: true, keys: true };
const BOTH_OFF = { paste: false, keys: false };

describe('TerminalModeTracker', () => {
  it('starts with both modes off', () => {
    expect(modesAfter([])).toEqual(BOTH_OFF);
  });

  it.each([
    ['\x1b[?2004h', { paste: true, keys: false }],
    ['\x1b[?1h', { paste: false, keys: true }],
    ['\x1b[?1;2004h', BOTH_ON],
    ['\x1b[?2004;1h', BOTH_ON],
    ['\x1b[?1;2004h\x1b[?2004l', { paste: false, keys: true }],
    ['\x1b[?1;2004h\x1b[?1;2004l', BOTH_OFF],
    ['\x1b[?1;2004h\x1bc', BOTH_OFF],
    ['\x1b[?1;2004h\x1b[!p', BOTH_OFF],
    ['\x1b[?1;2004hprompt> \x1b[?1l', { paste: true, keys: false }],
    // ESC and the C1 CSI in turn, with text between: each one found after the other.
    ['\x9b?1h a \x1b[?2004h b \x9b?1l c \x1b[31m d \x9b?2004l\x1b[?1h', { paste: false, keys: true }],
  ])('follows %j at every split point', (sequence, expected) => {
    for (const chunks of everySplit(sequence)) {
      expect(modesAfter(chunks), JSON.stringify(chunks)).toEqual(expected);
    }
  });

  it('follows the last word on each mode across chunks', () => {
    const tracker = new TerminalModeTracker();
    tracker.feed('>>> \x1b[?20');
    expect(tracker.bracketedPaste).toBe(false);
    tracker.feed('04h');
    expect(tracker.bracketedPaste).toBe(true);
    tracker.feed('output\n\x1b[?2004');
    expect(tracker.bracketedPaste).toBe(true);
    tracker.feed('l');
    expect(tracker.bracketedPaste).toBe(false);
  });

  it.each([
    ['an ANSI (non-private) mode', '\x1b[2004h\x1b[1h'],
    ['another private prefix', '\x1b[>2004h\x1b[=1h'],
    ['an intermediate byte', '\x1b[?2004$h\x1b[?1 h'],
    ['a different mode number', '\x1b[?12004h\x1b[?11h\x1b[?20040h'],
    ['a mode named as a sub-parameter', '\x1b[?5:2004h\x1b[?:1h'],
    ['a misplaced private marker', '\x1b[?20?04h\x1b[1?h'],
    ['a sequence cancelled by CAN or SUB', '\x1b[?20\x1804h\x1b[?1\x1ah'],
    ['a sequence cut by a non-ASCII character', '\x1b[?2004éh'],
    ['a sequence restarted by ESC', '\x1b[?2004\x1b[?25h'],
  ])('ignores %s', (_name, text) => {
    expect(modesAfter([text])).toEqual(BOTH_OFF);
  });

  it('does not mistake other escapes ending in c for a reset', () => {
    expect(modesAfter(['\x1b[?1;2004h\x1b(c\x1b#c\x1b[c\x1b[>c'])).toEqual(BOTH_ON);
  });

  it('accepts what xterm accepts', () => {
    expect(modesAfter(['\x9b?2004h'])).toEqual({ paste: true, keys: false });
    expect(modesAfter(['\x1b[?02004;;01h'])).toEqual(BOTH_ON);
    expect(modesAfter(['\x1b[?2004:1h'])).toEqual({ paste: true, keys: false });
    expect(modesAfter(['\x1b[?20\n04h'])).toEqual({ paste: true, keys: false });
    expect(modesAfter(['\x1b]0;title\x1b[?2004h'])).toEqual({ paste: true, keys: false });
    expect(modesAfter(['\x1bPq\x1b[?1h'])).toEqual({ paste: false, keys: true });
    expect(modesAfter(['\x1b[?1;2004h\x1b\x1bc'])).toEqual(BOTH_OFF);
  });

  it('ignores modes named after the 32nd parameter, as xterm does', () => {
    expect(modesAfter([`\x1b[?${'5;'.repeat(31)}2004h`])).toEqual({ paste: true, keys: false });
    expect(modesAfter([`\x1b[?${'5;'.repeat(32)}2004h`])).toEqual(BOTH_OFF);
  });

  it('does not grow with endless parameters', () => {
    const tracker = new TerminalModeTracker();
    tracker.feed('\x1b[?');
    for (let i = 0; i < 1000; i++) tracker.feed('9'.repeat(1000));
    tracker.feed('h\x1b[?2004h');
    expect(tracker.bracketedPaste).toBe(true);
  });
});

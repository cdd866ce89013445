import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { createAnsiStripper, MAX_LINE_LENGTH_LIMIT, stripAnsi } from '../src/index.js';

const ESC = '\x1b';

describe('stripAnsi removes escape sequences', () => {
  it.each([
    ['SGR colours', `${ESC}[32m✓ Scan complete${ESC}[0m`, '✓ Scan complete'],
    ['256-colour and truecolour SGR', `${ESC}[38;5;196mA${ESC}[48;2;1;2;3mB${ESC}[m`, 'AB'],
    ['SGR with colon sub-parameters', `${ESC}[4:3mC${ESC}[58:2::1:2:3mD`, 'CD'],
    ['cursor movement and screen clearing', `${ESC}[2J${ESC}[10;20Hx${ESC}[3Ay${ESC}[?25l`, 'xy'],
    ['private modes and intermediates', `${ESC}[?1049h${ESC}[?2004hA${ESC}[>4;1m${ESC}[ qB${ESC}[!p`, 'AB'],
    ['OSC ended by BEL', `a${ESC}]0;window title\x07b`, 'ab'],
    ['OSC ended by ST', `a${ESC}]2;title${ESC}\\b`, 'ab'],
    [
      'OSC 8 hyperlinks, keeping the link text',
      `${ESC}]8;;https://x.y/${ESC}\\link${ESC}]8;;${ESC}\\`,
      'link',
    ],
    ['OSC 52 clipboard with a long payload', `a${ESC}]52;c;${'QUJD'.repeat(5000)}\x07b`, 'ab'],
    ['DCS', `a${ESC}Pq#0;2;0;0;0#1!14@${ESC}\\b`, 'ab'],
    ['SOS, PM and APC', `a${ESC}Xsos${ESC}\\b${ESC}^pm${ESC}\\c${ESC}_Gf=100;AAAA${ESC}\\d`, 'abcd'],
    ['SS3 with its character (application-mode arrow echo)', `a${ESC}OAb${ESC}OPc`, 'abc'],
    ['SS2 with its character', `a${ESC}Nxb`, 'ab'],
    ['two-byte escapes', `a${ESC}=b${ESC}>c${ESC}7d${ESC}8e${ESC}Mf${ESC}cg`, 'abcdefg'],
    ['charset designations', `a${ESC}(Bb${ESC})0c${ESC}#8d`, 'abcd'],
    ['C1 CSI, OSC, DCS and SS3', `a\x9b31mb\x9d0;t\x07c\x90q\x9cd\x8fAe`, 'abcde'],
    ['C1 DCS, SOS, PM and APC strings', 'a\x90q#0;2\x9cb\x98sos\x9cc\x9epm\x9cd\x9f_Gf=1\x9ce', 'abcde'],
    ['SS3 arrows that would move the cursor as CSI', `ab${ESC}OCc${ESC}ODd${ESC}O1e${ESC}O f`, 'abcdef'],
    ['escapes with two intermediates (ISO 2022 designations)', `a${ESC}$(Bb${ESC}$)Cc`, 'abc'],
    ['two-byte escapes whose final is a digit', `a${ESC}0b${ESC}9c`, 'abc'],
    ['CSI ending in @ (insert characters)', `a${ESC}[2@b${ESC}[@c`, 'abc'],
    ['other C1 controls', 'a\x85b\x84c\x9ad', 'abcd'],
  ])('%s', (_name, input, expected) => {
    expect(stripAnsi(input)).toBe(expected);
  });

  it('drops control characters but keeps line feeds and tabs', () => {
    const controls = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code))
      .filter((c) => !'\n\r\t\b\x1b'.includes(c))
      .join('');
    expect(stripAnsi(`a${controls}\x7fb\tc\nd`)).toBe('ab\tc\nd');
  });

  it('keeps multi-byte text intact, including astral characters', () => {
    const text = 'naïve 日本語 🎉 Ω\n';
    expect(stripAnsi(`${ESC}[1m${text}${ESC}[0m`)).toBe(text);
  });

  it('returns plain text unchanged', () => {
    const text = 'line one\n\tindented\nno newline at end';
    expect(stripAnsi(text)).toBe(text);
    expect(stripAnsi('')).toBe('');
  });
});

describe('stripAnsi resolves a line as a terminal shows it', () => {
  it('leaves a progress bar at its last state', () => {
    expect(stripAnsi('10%\r50%\r100%\n')).toBe('100%\n');
    expect(stripAnsi('Downloading [==   ] 40%\rDownloading [=====] 100%\ndone\n')).toBe(
      'Downloading [=====] 100%\ndone\n',
    );
  });

  it('overwrites only as far as the new text reaches', () => {
    expect(stripAnsi('abcdef\rXY')).toBe('XYcdef');
    expect(stripAnsi('abcdef\rXY\n')).toBe('XYcdef\n');
  });

  it('turns CRLF into LF, however many CRs precede it', () => {
    expect(stripAnsi('one\r\ntwo\r\r\n')).toBe('one\ntwo\n');
    // after complete lines in the same chunk
    expect(stripAnsi('one\ntwo\r\nthree\n')).toBe('one\ntwo\nthree\n');
  });

  it('keeps a line whose trailing CR was never followed by text', () => {
    expect(stripAnsi('abc\r')).toBe('abc');
  });

  it('moves left on backspace without erasing', () => {
    expect(stripAnsi('abc\b\bX')).toBe('aXc');
    expect(stripAnsi('|\b/\b-\b\\\bdone\n')).toBe('done\n');
    expect(stripAnsi('\b\bab')).toBe('ab');
    expect(stripAnsi('ab\r\bX')).toBe('Xb');
    // nroff bold and underline overstrikes read as the plain letter
    expect(stripAnsi('B\bBo\bol\bld _\bu')).toBe('Bold u');
    // past the end of the text, over blank cells
    expect(stripAnsi('ab\x1b[3C\bX')).toBe('ab  X');
  });

  it('applies erase-in-line, the usual partner of a carriage return', () => {
    expect(stripAnsi('Loading... 90%\r\x1b[KDone\n')).toBe('Done\n');
    expect(stripAnsi('Loading... 90%\r\x1b[0KDone\n')).toBe('Done\n');
    expect(stripAnsi('hello\x1b[3D\x1b[1KX\n')).toBe('  Xlo\n');
    expect(stripAnsi('hello\x1b[2KX\n')).toBe('     X\n');
    expect(stripAnsi('hello\x1b[2K\rX\n')).toBe('X\n');
    expect(stripAnsi('hello\x1b[5KX\n')).toBe('helloX\n');
    // EL 2 before the end of the text erases all of it; erased cells at the end are nothing
    expect(stripAnsi('hello\x1b[3D\x1b[2KX\n')).toBe('  X\n');
    expect(stripAnsi('hello\x1b[1K\n')).toBe('\n');
    expect(stripAnsi('hello\x1b[1K')).toBe('');
  });

  it('applies cursor column moves as Node readline emits them', () => {
    // readline.clearLine(stream, 0) then readline.cursorTo(stream, 0)
    expect(stripAnsi('step 1 of 3\x1b[2K\x1b[1Gstep 2 of 3\n')).toBe('step 2 of 3\n');
    expect(stripAnsi('hello\x1b[3GX')).toBe('heXlo');
    expect(stripAnsi('hello\x1b[0GX')).toBe('Xello');
    expect(stripAnsi('hello\x1b[2`X')).toBe('hXllo');
    expect(stripAnsi('hello\x1b[2DX')).toBe('helXo');
    expect(stripAnsi('hello\x1b[DX')).toBe('hellX');
    expect(stripAnsi('hi\x1b[3CX')).toBe('hi   X');
    expect(stripAnsi('hi\x1b[CX')).toBe('hi X');
    expect(stripAnsi('hi\x1b[9DX')).toBe('Xi');
    // from blank cells past the end of the text
    expect(stripAnsi('ab\x1b[3C\x1b[DX')).toBe('ab  X');
    expect(stripAnsi('ab\x1b[3C\x1b[2GX')).toBe('aX');
  });

  it('moves by the first parameter only', () => {
    expect(stripAnsi('hello\x1b[2;3DX')).toBe('helXo');
    expect(stripAnsi('hello\x1b[2:3DX')).toBe('helXo');
    expect(stripAnsi('hello\x1b[;3DX')).toBe('hellX');
  });

  it('ignores line edits that are private or carry intermediates', () => {
    expect(stripAnsi('hello\r\x1b[?KX')).toBe('Xello');
    expect(stripAnsi('hello\x1b[2 GX')).toBe('helloX');
  });

  it('counts columns in code points, never splitting a character', () => {
    expect(stripAnsi('😀😀\rX')).toBe('X😀');
    expect(stripAnsi('ab\rX😀\n')).toBe('X😀\n');
    expect(stripAnsi('a😀b\b\bX')).toBe('aXb');
    expect(stripAnsi('😀bc\x1b[2GX')).toBe('😀Xc');
    expect(stripAnsi('😀bc\x1b[2D\x1b[1KX')).toBe(' Xc');
    expect(stripAnsi('😀bc\x1b[1KX')).toBe('   X');
    expect(stripAnsi('😀\bX')).toBe('X');
    expect(stripAnsi('a😀b\x1b[2GX')).toBe('aXb');
    expect(stripAnsi('a😀b\r\x1b[CX')).toBe('aXb');
    // the first and last astral code points (U+10000 and U+10FFFF)
    expect(stripAnsi('\u{10000}b\rX')).toBe('Xb');
    expect(stripAnsi('\u{10ffff}b\rX')).toBe('Xb');
  });

  it('treats a lone surrogate as one column, keeping what is around it', () => {
    expect(stripAnsi('\ud83dab\rXY')).toBe('XYb');
    expect(stripAnsi('\ud83d\uff01b\rXY')).toBe('XYb');
    expect(stripAnsi('a\ude00b\rX')).toBe('X\ude00b');
    expect(stripAnsi('\ud83da\bX')).toBe('\ud83dX');
    expect(stripAnsi('a\ud83d\rX')).toBe('X\ud83d');
    expect(stripAnsi('a\ud83d\x1b[31mb')).toBe('a\ud83db');
  });

  it('treats a tab as one column when a line is overwritten', () => {
    expect(stripAnsi('\tab\rX')).toBe('Xab');
  });
});

describe('stripAnsi on malformed input', () => {
  it('drops an unfinished sequence at the end of input', () => {
    expect(stripAnsi(`abc${ESC}`)).toBe('abc');
    expect(stripAnsi(`abc${ESC}[1;3`)).toBe('abc');
    expect(stripAnsi(`abc${ESC}]0;title`)).toBe('abc');
  });

  it('executes line feeds inside a sequence, as a terminal does', () => {
    expect(stripAnsi(`a${ESC}[3\n1mb`)).toBe('a\nb');
    expect(stripAnsi(`a${ESC}[3\t1mb`)).toBe('a\tb');
    // SS3 takes a printable character only: a control after it is executed
    expect(stripAnsi(`a${ESC}O\nb`)).toBe('a\nb');
  });

  it('ends a sequence at CAN or SUB, printing what follows', () => {
    expect(stripAnsi(`a${ESC}[3\x181mb`)).toBe('a1mb');
    expect(stripAnsi(`a${ESC}]0;ti\x1atle`)).toBe('atle');
  });

  it('prints a non-ASCII character that interrupts a sequence instead of losing it', () => {
    expect(stripAnsi(`a${ESC}[3é1mb`)).toBe('aé1mb');
    expect(stripAnsi(`a${ESC}éb`)).toBe('aéb');
    expect(stripAnsi(`a${ESC}(éb`)).toBe('aéb');
    expect(stripAnsi(`a${ESC}Oéb`)).toBe('aéb');
  });

  it('lets ESC start a new sequence from inside another', () => {
    expect(stripAnsi(`a${ESC}[12${ESC}[31mb`)).toBe('ab');
    expect(stripAnsi(`a${ESC}]0;title${ESC}[31mb`)).toBe('ab');
    expect(stripAnsi(`a${ESC}${ESC}[31mb`)).toBe('ab');
  });

  it('ends a string at any C1 control, as xterm does', () => {
    expect(stripAnsi(`a${ESC}]0;t\x9b31mb`)).toBe('ab');
    expect(stripAnsi(`a${ESC}Pq\x85bc`)).toBe('abc');
  });

  it('hides what follows an unterminated string until it ends, as a terminal does', () => {
    expect(stripAnsi(`a${ESC}]0;never ends\nline two\n${ESC}[0mafter\n`)).toBe('aafter\n');
  });

  it('does not treat BEL as the end of a DCS or APC string', () => {
    expect(stripAnsi(`a${ESC}Pq\x07still dcs${ESC}\\b`)).toBe('ab');
    expect(stripAnsi(`a${ESC}_x\x07y${ESC}\\b`)).toBe('ab');
  });

  it('ignores DEL inside a sequence', () => {
    expect(stripAnsi(`a${ESC}[3\x7f1mb`)).toBe('ab');
  });

  it('survives absurd cursor moves without allocating a huge row', () => {
    expect(stripAnsi('a\x1b[999999999CX', { maxLineLength: 8 })).toBe('a      X');
    expect(stripAnsi('a\x1b[999999999GX')).toBe(`a${' '.repeat(4094)}X`);
  });
});

describe('maxLineLength', () => {
  it('wraps long rows softly: plain text is unchanged', () => {
    const text = `${'x'.repeat(25)}\n${'y'.repeat(7)}`;
    expect(stripAnsi(text, { maxLineLength: 10 })).toBe(text);
  });

  it('limits a carriage return to the last row, as a terminal at that width would', () => {
    expect(stripAnsi('abcdefghij12\rXY\n', { maxLineLength: 10 })).toBe('abcdefghijXY\n');
    expect(stripAnsi('abcdefghij\rXY\n', { maxLineLength: 10 })).toBe('XYcdefghij\n');
  });

  it('behaves at the margin as xterm does with a wrap pending', () => {
    // Observed with @xterm/headless at 10 columns.
    const at10 = (text: string) => stripAnsi(text, { maxLineLength: 10 });
    expect(at10('abcdefghijß')).toBe('abcdefghijß');
    expect(at10('abcdefghij\x1b[Cß')).toBe('abcdefghiß');
    expect(at10('abcdefghij\x1b[10Gß')).toBe('abcdefghiß');
    expect(at10('abcdefghij\bß')).toBe('abcdefghßj');
    expect(at10('abcdefghij\x1b[Dß')).toBe('abcdefghßj');
    expect(at10('abcdefghij\x1b[2K\rß')).toBe('ß');
    expect(at10('\x1b[6Gabcde\x1b[2Kß')).toBe(`${' '.repeat(10)}ß`);
  });

  it('keeps a surrogate pair on one row when the margin falls inside it', () => {
    expect(stripAnsi('abc😀de\rX', { maxLineLength: 4 })).toBe('abc😀Xe');
    expect(stripAnsi('ab\u{10000}c\rX', { maxLineLength: 3 })).toBe('ab\u{10000}X');
    expect(stripAnsi('ab\u{10ffff}c\rX', { maxLineLength: 3 })).toBe('ab\u{10ffff}X');
    // a BMP character above the surrogates is one unit like any other
    expect(stripAnsi('ab\uff01c\rX', { maxLineLength: 3 })).toBe('ab\uff01X');
    // a pair written over one unit just before the margin: the row holds a unit more than the width
    expect(stripAnsi('abcd\b😀e\rX', { maxLineLength: 4 })).toBe('ab😀dX');
  });

  it('stops a cursor move before a pair that the margin falls inside', () => {
    expect(stripAnsi('abcdefgh😀\x1b[10GX', { maxLineLength: 10 })).toBe('abcdefghX');
  });

  it('rejects values outside 1..1,048,576 with ERR_INVALID_OPTION', () => {
    for (const bad of [0, -1, 1.5, MAX_LINE_LENGTH_LIMIT.hard + 1, Number.NaN, '80']) {
      const error = throwsWith(
        () => createAnsiStripper({ maxLineLength: bad as number }),
        'ERR_INVALID_OPTION',
      );
      expect(error.message).toMatch(/^maxLineLength must be an integer from 1 to 1048576/);
    }
    expect(stripAnsi('ok', { maxLineLength: 1 })).toBe('ok');
  });
});

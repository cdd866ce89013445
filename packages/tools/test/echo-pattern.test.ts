import { fitText } from '@procmux/transcript';
import { describe, expect, it } from 'vitest';
import { echo, echoBare } from '../src/echo.js';
import { compilePattern } from '../src/pattern.js';

describe('echo', () => {
  it('shows a short value whole and a long one as a prefix and its length', () => {
    expect(echo('proc_abc')).toBe('"proc_abc"');
    expect(echo('x'.repeat(100_000))).toBe(`"${'x'.repeat(60)}"… (100,000 characters)`);
    expect(echoBare('proc_abc')).toBe('proc_abc');
    expect(echoBare('two words')).toBe('"two words"');
  });

  it('never ends a prefix on half a surrogate pair', () => {
    const shown = echo(`${'a'.repeat(59)}😀${'b'.repeat(100)}`);
    expect(shown.startsWith(`"${'a'.repeat(59)}"`)).toBe(true);
  });
});

describe('fitText', () => {
  it('keeps the start and end of a text over the budget and says how long it was', () => {
    const text = `${'s'.repeat(5_000)}${'e'.repeat(5_000)}`;
    const fitted = fitText(text, 1_000);
    expect(fitted.length).toBeLessThanOrEqual(1_000);
    expect(fitted).toMatch(/^s+\n\[\.\.\. 10,000 characters in all; the middle was left out \.\.\.\]\ne+$/);
    expect(fitText('short', 1_000)).toBe('short');
  });
});

describe('compilePattern', () => {
  it('finds matches in linear time, even where backtracking explodes', () => {
    const pattern = compilePattern('^(a+)+$');
    expect(pattern.find(`${'a'.repeat(50_000)}!`)).toBeUndefined();
    expect(pattern.find('x\naaa\ny')).toBe('aaa');
  });

  it('takes JavaScript \\u escapes and leaves an escaped backslash alone', () => {
    expect(compilePattern('caf\\u00e9').find('un café')).toBe('café');
    expect(compilePattern('\\u{1F600}').find('hi 😀')).toBe('😀');
    expect(compilePattern('a\\\\u0041').find('a\\u0041')).toBe('a\\u0041');
  });

  it.each([
    ['(a)\\1', 'invalid escape sequence: `\\1`'],
    ['(?<=a)b', 'invalid named capture'],
    ['(?!a)', 'invalid or unsupported Perl syntax: `(?!`'],
  ])('refuses %s saying what is allowed', (source, why) => {
    expect(() => compilePattern(source)).toThrow(why);
    expect(() => compilePattern(source)).toThrow('backreferences (\\1, \\k<name>) and lookaround');
  });
});

import { describe, expect, it } from 'vitest';
import { computeDelta, type DeltaState, INITIAL_DELTA_STATE } from '../src/delta.js';

const state = (lines: string[], started = true, endsOnLast = true, blankLines = 0): DeltaState => ({
  lines,
  started,
  endsOnLast,
  blankLines,
});

describe('computeDelta', () => {
  it('starts from a state where nothing has been returned', () => {
    expect(INITIAL_DELTA_STATE).toEqual({ lines: [], started: false, endsOnLast: false, blankLines: 0 });
  });

  it('returns the first render whole, without a leading line break', () => {
    expect(computeDelta(INITIAL_DELTA_STATE, ['a', '', 'b'])).toEqual({
      text: 'a\n\nb',
      started: true,
      endsOnLast: true,
      redrawn: 0,
    });
  });

  it('returns nothing when nothing changed, and nothing for an empty screen', () => {
    expect(computeDelta(state(['a', 'b']), ['a', 'b']).text).toBe('');
    expect(computeDelta(INITIAL_DELTA_STATE, [])).toEqual({
      text: '',
      started: false,
      endsOnLast: false,
      redrawn: 0,
    });
  });

  it('appends only the new characters of a line that grew', () => {
    expect(computeDelta(state(['x', '>>> i']), ['x', '>>> im']).text).toBe('m');
    expect(computeDelta(state(['x', '>>>']), ['x', '>>> import sys', 'ok']).text).toBe(' import sys\nok');
  });

  it('puts lines after the previous end on lines of their own', () => {
    expect(computeDelta(state(['a']), ['a', 'b', 'c']).text).toBe('\nb\nc');
  });

  it('returns a line that changed other than by growing whole, on a line of its own', () => {
    expect(computeDelta(state(['a', ' 9%']), ['a', '10%']).text).toBe('\n10%');
    // A change above the last line is a redraw even if the changed line grew.
    expect(computeDelta(state(['ab', 'c']), ['abc', 'c']).text).toBe('\nabc\nc');
  });

  it('keeps a line break after a screen that was cleared', () => {
    expect(computeDelta(state([]), ['new']).text).toBe('\nnew');
  });

  it('returns empty lines that scrolled away unreturned before the next line', () => {
    expect(computeDelta(state([], true, true, 2), ['x']).text).toBe('\n\n\nx');
    expect(computeDelta({ ...INITIAL_DELTA_STATE, blankLines: 2 }, ['x']).text).toBe('\n\nx');
  });

  it('does not grow the last line while empty lines after it are still to be returned', () => {
    // The text ends with '>>>' and an empty line not returned yet: the next characters go after it.
    expect(computeDelta(state(['a', '>>>'], true, true, 1), ['a', '>>> x']).text).toBe('\n\n>>> x');
  });

  it('does not grow a line the text no longer ends on', () => {
    // Lines were erased: the text returned so far ends with 'c', not with 'b'.
    const erased = computeDelta(state(['a', 'b', 'c']), ['a', 'b']);
    expect(erased).toEqual({ text: '', started: true, endsOnLast: false, redrawn: 0 });
    expect(computeDelta(state(['a', 'b'], true, erased.endsOnLast), ['a', 'bc']).text).toBe('\nbc');
  });

  describe('redrawn: the lines at the end of the text so far that the new text draws again', () => {
    it('counts the lines from the first one that changed to the last one returned', () => {
      // A three-line progress display moved on: all three come back, standing for the old three.
      const next = computeDelta(state(['$ pull', 'a 10%', 'b 20%', 'c 30%']), [
        '$ pull',
        'a 40%',
        'b 50%',
        'c 60%',
      ]);
      expect(next).toMatchObject({ text: '\na 40%\nb 50%\nc 60%', redrawn: 3 });
      // Only the last of them changed, and a line followed.
      expect(computeDelta(state(['a', 'b 20%']), ['a', 'b 30%', 'done'])).toMatchObject({
        text: '\nb 30%\ndone',
        redrawn: 1,
      });
      // Lines the new render no longer holds are drawn over too: the screen shows 'x' after 'a'.
      expect(computeDelta(state(['a', 'b', 'c']), ['a', 'x']).redrawn).toBe(2);
    });

    it('is 0 when the text only continues: new lines, a line that grew, nothing new', () => {
      expect(computeDelta(state(['a']), ['a', 'b', 'c']).redrawn).toBe(0);
      expect(computeDelta(state(['x', '>>> i']), ['x', '>>> im']).redrawn).toBe(0);
      expect(computeDelta(state(['x', '>>> i']), ['x', '>>> im', 'out']).redrawn).toBe(0);
      expect(computeDelta(state(['a', 'b']), ['a', 'b']).redrawn).toBe(0);
      expect(computeDelta(INITIAL_DELTA_STATE, ['a']).redrawn).toBe(0);
    });

    it('is 0 when the text so far is not known to end on those lines', () => {
      // Lines were erased after they were returned, or empty lines are still due before the next.
      expect(computeDelta(state(['a', 'b'], true, false), ['a', 'x']).redrawn).toBe(0);
      expect(computeDelta(state(['a', 'b'], true, true, 1), ['a', 'x']).redrawn).toBe(0);
    });
  });
});

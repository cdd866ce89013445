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
    });
  });

  it('returns nothing when nothing changed, and nothing for an empty screen', () => {
    expect(computeDelta(state(['a', 'b']), ['a', 'b']).text).toBe('');
    expect(computeDelta(INITIAL_DELTA_STATE, [])).toEqual({ text: '', started: false, endsOnLast: false });
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
    expect(erased).toEqual({ text: '', started: true, endsOnLast: false });
    expect(computeDelta(state(['a', 'b'], true, erased.endsOnLast), ['a', 'bc']).text).toBe('\nbc');
  });
});

import { describe, expect, it } from 'vitest';
import { joinRows, type Row } from '../src/buffer-lines.js';

const row = (text: string, wrapped = false): Row => ({ text, wrapped });

describe('joinRows', () => {
  it('joins wrapped rows to the row they continue and trims the end of each line', () => {
    expect(joinRows([row('ab'), row('c  ', true), row('d '), row('', true)])).toEqual(['abc', 'd']);
  });

  it('starts a line at the first row of the range even when it continues the row before', () => {
    const rows = [row('ab'), row('cd', true), row('ef', true), row('gh')];
    expect(joinRows(rows, 1, 3)).toEqual(['cdef']);
    expect(joinRows(rows, 2)).toEqual(['ef', 'gh']);
  });
});

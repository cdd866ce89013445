import type { IBuffer } from '@xterm/headless';

/** One row of the terminal grid. */
export interface Row {
  text: string;
  /** The row continues the one above it: the program's text ran past the right edge. */
  wrapped: boolean;
}

/** Appends rows [from, to) of `buffer` to `out`. */
export function readRows(buffer: IBuffer, from: number, to: number, out: Row[] = []): Row[] {
  const end = Math.min(to, buffer.length);
  for (let y = Math.max(0, from); y < end; y++) {
    const line = buffer.getLine(y)!;
    // translateToString advances by cell width, so a wide character comes out once. Its trimRight
    // drops only cells nothing was written to: the blank a wide character leaves at the end of a
    // row it did not fit on goes, while spaces the program wrote stay until the line's end is
    // trimmed (they may sit in the middle of a wrapped line).
    out.push({ text: line.translateToString(true), wrapped: line.isWrapped });
  }
  return out;
}

/**
 * Logical lines of `rows[from..to)`: wrapped rows joined to the row they continue (the first row
 * always starts a line), trailing spaces removed.
 */
export function joinRows(rows: readonly Row[], from = 0, to = rows.length): string[] {
  const lines: string[] = [];
  for (let i = Math.max(0, from); i < to; i++) {
    const row = rows[i]!;
    if (row.wrapped && lines.length > 0) lines[lines.length - 1] += row.text;
    else lines.push(row.text);
  }
  for (let i = 0; i < lines.length; i++) lines[i] = trimEndSpaces(lines[i]!);
  return lines;
}

/**
 * How many lines start in rows `from`..`to` - 1 of `buffer` (`from` counting as a start), at
 * most `most`; undefined when the last one counted wraps on past `to` (it is only partly there).
 */
export function lineStartsBetween(
  buffer: IBuffer,
  from: number,
  to: number,
  most: number,
): number | undefined {
  let count = 0;
  let row = from;
  for (; row < to && count < most; row++) if (row === from || !buffer.getLine(row)?.isWrapped) count++;
  return count > 0 && row === to && buffer.getLine(to)?.isWrapped ? undefined : count;
}

/** How many of the last lines are empty. */
export function trailingBlankCount(lines: readonly string[]): number {
  let count = 0;
  while (count < lines.length && lines[lines.length - 1 - count] === '') count++;
  return count;
}

/** `lines` without its trailing empty lines (a screen's unused rows). */
export function withoutTrailingBlank(lines: string[]): string[] {
  lines.length -= trailingBlankCount(lines);
  return lines;
}

/** Removes trailing U+0020 spaces (a loop: a regex would be quadratic on long runs of spaces). */
export function trimEndSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 32) end--;
  return end === text.length ? text : text.slice(0, end);
}

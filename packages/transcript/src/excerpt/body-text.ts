// The text the output budget cuts, seen through the few questions the cut asks of it, so the
// same cut works on a string and on an excerpt of a transcript too big to hold (head, tail
// and what streamed past in between).
import { ERROR_LINE_PATTERN } from './error-lines.js';

/** A line of the body that looks like an error. */
export interface ErrorLine {
  /** The line, or at least its first 401 characters. */
  text: string;
  /** 0-based line index in the body. */
  index: number;
}

/** What the budget's cut reads of a body; indexes are UTF-16 offsets into the whole body. */
export interface BodyText {
  readonly length: number;
  /** Text in [from, to): only within the part of the body the cut keeps (its head or its tail). */
  slice(from: number, to: number): string;
  indexOf(newline: '\n', from: number): number;
  lastIndexOf(newline: '\n', from: number): number;
  charCodeAt(index: number): number;
  /** 0-based index of the line holding the character at `index`. */
  lineIndexAt(index: number): number;
  /** UTF-8 bytes of [from, to). */
  byteLength(from: number, to: number): number;
  /** Lines starting in [from, to) that look like errors, in order, each ending at `to` at the latest. */
  errorLines(from: number, to: number): Iterable<ErrorLine>;
}

/** A body held whole. */
export function stringBody(body: string): BodyText {
  return {
    length: body.length,
    slice: (from, to) => body.slice(from, to),
    indexOf: (newline, from) => body.indexOf(newline, from),
    lastIndexOf: (newline, from) => body.lastIndexOf(newline, from),
    charCodeAt: (index) => body.charCodeAt(index),
    lineIndexAt: (index) => countNewlines(body, 0, index),
    byteLength: (from, to) => Buffer.byteLength(body.slice(from, to)),
    errorLines: (from, to) => errorLinesIn(body, from, to, countNewlines(body, 0, from)),
  };
}

/** Newlines in text[from, to). */
export function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}

/** Error-looking lines of `text` starting in [from, to); `firstIndex` is the line index at `from`. */
export function* errorLinesIn(
  text: string,
  from: number,
  to: number,
  firstIndex: number,
): Iterable<ErrorLine> {
  let index = firstIndex;
  let start = from;
  while (start < to) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 || newline > to ? to : newline;
    const line = text.slice(start, end);
    if (ERROR_LINE_PATTERN.test(line)) yield { text: line, index };
    start = end + 1;
    index += 1;
  }
}

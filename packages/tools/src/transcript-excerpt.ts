// A transcript too big to hold, reduced as it streams past to what the output budget can show:
// its head, its tail, line and byte counts, and the error-looking lines in between. Memory is
// a few times the budget, whatever the transcript's size (a 50 MB one-shot held as one string,
// then split and joined, took the server to 850 MB).
import { type BodyText, countNewlines, type ErrorLine } from './body-text.js';
import { ERROR_LINE_PATTERN, ERROR_WORD_CHARS, MAX_ERROR_LINE_CHARS } from './error-lines.js';
import {
  applyBudgetToBody,
  applyOutputBudget,
  bodyRoom,
  NOTICE_RESERVE,
  type OutputBudgetRequest,
  type OutputBudgetResult,
} from './truncate.js';

/** Transcripts up to this many characters are held whole and cut as a string. */
export const WHOLE_TRANSCRIPT_CHARS = 1_000_000;

/**
 * applyOutputBudget over a transcript given as chunks, holding it whole only while it is
 * shorter than `wholeChars`; the result is the same either way.
 */
export async function budgetTranscript(
  chunks: AsyncIterable<string>,
  request: Omit<OutputBudgetRequest, 'body'> & { empty: string },
  wholeChars = WHOLE_TRANSCRIPT_CHARS,
): Promise<OutputBudgetResult> {
  let held: string[] = [];
  let heldChars = 0;
  let excerpt: Excerpt | undefined;
  for await (const chunk of chunks) {
    if (chunk === '') continue;
    if (excerpt) {
      excerpt.push(chunk);
      continue;
    }
    held.push(chunk);
    heldChars += chunk.length;
    if (heldChars > wholeChars) {
      excerpt = new Excerpt(Math.max(2, bodyRoom(request) - NOTICE_RESERVE));
      for (const part of held) excerpt.push(part);
      held = [];
    }
  }
  if (!excerpt) {
    const body = held.join('');
    return applyOutputBudget({ ...request, body: body === '' ? request.empty : body });
  }
  return applyBudgetToBody(excerpt.finish(), request);
}

/** An error line and where it starts in the body. */
type PlacedErrorLine = ErrorLine & { start: number };

interface OpenLine {
  start: number;
  index: number;
  /** The first MAX_ERROR_LINE_CHARS + 1 characters. */
  prefix: string;
  /** The last characters seen, so a word split between chunks is still found. */
  carry: string;
  matched: boolean;
}

/** Head, tail and counts of a long text, collected chunk by chunk. */
class Excerpt {
  #head = '';
  #tail = '';
  #length = 0;
  #bytes = 0;
  #newlines = 0;
  /** Error-looking lines, in order (after the head, at most #maxErrors). */
  #errors: PlacedErrorLine[] = [];
  #line: OpenLine;
  readonly #keep: number;
  #middleErrors = 0;
  readonly #maxErrors: number;

  /** `avail`: the characters the cut may show, split between head, tail and error lines. */
  constructor(avail: number) {
    // The head share is at most 40% of avail, the tail at most 60%; one character more each
    // lets the cut see the line break beside its boundary.
    this.#keep = avail + 1;
    this.#maxErrors = Math.ceil(avail / 8);
    this.#line = { start: 0, index: 0, prefix: '', carry: '', matched: false };
  }

  push(chunk: string): void {
    if (this.#head.length < this.#keep) this.#head += chunk.slice(0, this.#keep - this.#head.length);
    this.#tail += chunk;
    if (this.#tail.length > 2 * this.#keep) this.#tail = this.#tail.slice(this.#tail.length - this.#keep);
    this.#bytes += Buffer.byteLength(chunk);
    let at = 0;
    for (;;) {
      const newline = chunk.indexOf('\n', at);
      const end = newline === -1 ? chunk.length : newline;
      this.#linePiece(chunk.slice(at, end));
      if (newline === -1) break;
      this.#endLine(this.#length + newline + 1);
      at = newline + 1;
    }
    this.#length += chunk.length;
  }

  #linePiece(piece: string): void {
    const line = this.#line;
    if (piece === '') return;
    if (line.prefix.length <= MAX_ERROR_LINE_CHARS)
      line.prefix += piece.slice(0, MAX_ERROR_LINE_CHARS + 1 - line.prefix.length);
    if (!line.matched) {
      const text = line.carry + piece;
      line.matched = ERROR_LINE_PATTERN.test(text);
      line.carry = text.slice(-ERROR_WORD_CHARS);
    }
  }

  #endLine(nextStart: number): void {
    this.#keepError();
    this.#newlines += 1;
    const line = this.#line;
    this.#line = { start: nextStart, index: line.index + 1, prefix: '', carry: '', matched: false };
  }

  #keepError(): void {
    const { matched, prefix, index, start } = this.#line;
    // Lines starting in the head are few (they fit in it); those after it are capped.
    if (matched && (start < this.#keep || this.#middleErrors++ < this.#maxErrors)) {
      this.#errors.push({ text: prefix, index, start });
    }
  }

  /** The body as the budget's cut reads it, less one trailing newline (as applyOutputBudget does). */
  finish(): BodyText {
    this.#keepError();
    let tail = this.#tail.length > this.#keep ? this.#tail.slice(this.#tail.length - this.#keep) : this.#tail;
    let length = this.#length;
    let bytes = this.#bytes;
    let newlines = this.#newlines;
    if (tail.endsWith('\n')) {
      tail = tail.slice(0, -1);
      length -= 1;
      bytes -= 1;
      newlines -= 1;
    }
    return excerptBody({
      head: this.#head,
      tail,
      length,
      bytes,
      newlines,
      errors: this.#errors,
    });
  }
}

interface ExcerptParts {
  head: string;
  tail: string;
  length: number;
  bytes: number;
  newlines: number;
  errors: PlacedErrorLine[];
}

function excerptBody(parts: ExcerptParts): BodyText {
  const { head, tail, length } = parts;
  const tailBase = length - tail.length;
  const tailBytes = Buffer.byteLength(tail);
  const inHead = (index: number) => index <= head.length;
  const outside = (index: number) =>
    new RangeError(`offset ${index} is in the part of the transcript that was not kept`);
  const bytesBefore = (index: number): number => {
    if (inHead(index)) return Buffer.byteLength(head.slice(0, index));
    if (index >= tailBase)
      return parts.bytes - tailBytes + Buffer.byteLength(tail.slice(0, index - tailBase));
    throw outside(index);
  };
  return {
    length,
    slice(from, to) {
      if (to <= head.length) return head.slice(from, to);
      if (from >= tailBase) return tail.slice(from - tailBase, to - tailBase);
      throw outside(from);
    },
    indexOf(newline, from) {
      if (from >= tailBase) {
        const i = tail.indexOf(newline, from - tailBase);
        return i === -1 ? -1 : i + tailBase;
      }
      const i = head.indexOf(newline, from);
      if (i !== -1) return i;
      throw outside(from);
    },
    lastIndexOf(newline, from) {
      if (from < head.length) return head.lastIndexOf(newline, from);
      throw outside(from);
    },
    charCodeAt(index) {
      if (index < head.length) return head.charCodeAt(index);
      if (index >= tailBase) return tail.charCodeAt(index - tailBase);
      throw outside(index);
    },
    lineIndexAt(index) {
      if (inHead(index)) return countNewlines(head, 0, index);
      if (index >= tailBase) return parts.newlines - countNewlines(tail, index - tailBase, tail.length);
      throw outside(index);
    },
    byteLength(from, to) {
      return bytesBefore(to) - bytesBefore(from);
    },
    *errorLines(from, to) {
      // A cut inside a line (one longer than the head share): the rest of that line counts.
      const lineStart = from === 0 ? 0 : from <= head.length ? head.lastIndexOf('\n', from - 1) + 1 : from;
      if (lineStart < from && from < to) {
        const newline = head.indexOf('\n', from);
        const text = head.slice(from, newline === -1 ? head.length : Math.min(newline, to));
        if (ERROR_LINE_PATTERN.test(text)) yield { text, index: countNewlines(head, 0, from) };
      }
      for (const line of parts.errors) {
        if (line.start >= to) break;
        if (line.start >= from) yield line;
      }
    },
  };
}

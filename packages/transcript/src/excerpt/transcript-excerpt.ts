// The output budget over a transcript given piece by piece: held whole while it is short, then
// reduced to an Excerpt (excerpt.ts) that holds a few times the budget whatever its size.
import { ERROR_WORD_CHARS } from './error-lines.js';
import { Excerpt, type PlainSpan } from './excerpt.js';
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

/** What budgetTranscript and a session's excerpt take: the budget's request, less the body. */
export type TranscriptExcerptRequest = Omit<OutputBudgetRequest, 'body'> & {
  /** Shown when the transcript is empty. */
  empty: string;
};

/**
 * applyOutputBudget over a transcript given as chunks, holding it whole only while it is
 * shorter than `wholeChars`; the result is the same either way.
 */
export async function budgetTranscript(
  chunks: AsyncIterable<string>,
  request: TranscriptExcerptRequest,
  wholeChars = WHOLE_TRANSCRIPT_CHARS,
): Promise<OutputBudgetResult> {
  const sink = new BudgetSink(request, wholeChars);
  for await (const chunk of chunks) sink.push(chunk);
  return sink.finish();
}

export type { PlainSpan };

/**
 * The budget's cut fed a transcript piece by piece: held whole while it is short, then reduced
 * to its head, tail, counts and error lines. Once reduced, a part of the middle that needs no
 * reading (no error word, nothing to strip) may be only counted (skip()): a 50 MB one-shot's
 * middle is then never decoded or stripped at all.
 */
export class BudgetSink {
  readonly #request: TranscriptExcerptRequest;
  readonly #wholeChars: number;
  #held: string[] = [];
  #heldChars = 0;
  #excerpt: Excerpt | undefined;

  constructor(request: TranscriptExcerptRequest, wholeChars = WHOLE_TRANSCRIPT_CHARS) {
    this.#request = request;
    this.#wholeChars = wholeChars;
  }

  push(chunk: string): void {
    if (chunk === '') return;
    if (this.#excerpt) {
      this.#excerpt.push(chunk);
      return;
    }
    this.#held.push(chunk);
    this.#heldChars += chunk.length;
    if (this.#heldChars > this.#wholeChars) {
      this.#excerpt = new Excerpt(this.#avail(), this.#request.firstLine ?? 0);
      for (const part of this.#held) this.#excerpt.push(part);
      this.#held = [];
    }
  }

  /**
   * Whether skip() may be called now: the text is reduced, its head is kept, and what was
   * pushed ends with a line feed.
   */
  get canSkip(): boolean {
    return this.#excerpt?.canSkip ?? false;
  }

  /** Characters the text after the last skip must reach, so the kept tail is whole. */
  get tailChars(): number {
    return this.#avail() + 1 + ERROR_WORD_CHARS;
  }

  /** Counts a plain span as the next part of the transcript, without its text (see canSkip). */
  skip(span: PlainSpan): void {
    if (!this.#excerpt?.canSkip) throw new Error('BudgetSink.skip() before the head is kept at a line start');
    this.#excerpt.skip(span);
  }

  finish(): OutputBudgetResult {
    if (!this.#excerpt) {
      const body = this.#held.join('');
      return applyOutputBudget({ ...this.#request, body: body === '' ? this.#request.empty : body });
    }
    return applyBudgetToBody(this.#excerpt.finish(), this.#request);
  }

  #avail(): number {
    return Math.max(2, bodyRoom(this.#request) - NOTICE_RESERVE);
  }
}

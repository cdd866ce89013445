/** What a renderNew() left behind, to compute the next one against. */
export interface DeltaState {
  /** Logical lines from where the next render starts reading, as they were. */
  readonly lines: readonly string[];
  /** Something has been returned before, so new lines start with a line break. */
  readonly started: boolean;
  /** The text returned so far ends with the last of `lines` (false after lines were erased). */
  readonly endsOnLast: boolean;
  /**
   * Empty lines that followed the last line returned and have since scrolled above where the
   * next render starts: they come back before the next line, so no line is lost.
   */
  readonly blankLines: number;
}

export const INITIAL_DELTA_STATE: DeltaState = {
  lines: [],
  started: false,
  endsOnLast: false,
  blankLines: 0,
};

export interface Delta {
  text: string;
  started: boolean;
  endsOnLast: boolean;
}

/**
 * The text that carries a reader of the previous render over to `next`, both starting at the same
 * line. Lines both share at the start are dropped (the longest common prefix), which is right both
 * when the terminal scrolled and when it redrew in place. When the line the previous text ended
 * on has only grown, just its new characters come back, so a prompt being typed into reads as one
 * stream; a line that changed otherwise comes back whole, on a line of its own.
 *
 * @example
 * computeDelta({ lines: ['$ ec'], started: true, endsOnLast: true, blankLines: 0 }, ['$ echo hi', 'hi']).text
 * // 'ho hi\nhi'
 */
export function computeDelta(previous: DeltaState, next: readonly string[]): Delta {
  const prev = previous.lines;
  let common = 0;
  const shorter = Math.min(prev.length, next.length);
  while (common < shorter && prev[common] === next[common]) common++;

  if (common === next.length) {
    // Nothing new. If lines were erased the text no longer ends on the last line there is.
    return {
      text: '',
      started: previous.started,
      endsOnLast: previous.endsOnLast && next.length === prev.length,
    };
  }

  let text = '';
  let index = common;
  let lineBreak = previous.started;
  const last = prev[common];
  if (
    previous.endsOnLast &&
    previous.blankLines === 0 &&
    common === prev.length - 1 &&
    last !== undefined &&
    next[common]!.startsWith(last)
  ) {
    text = next[common]!.slice(last.length);
    index++;
    lineBreak = true;
  }
  for (let blank = 0; blank < previous.blankLines; blank++) {
    text += lineBreak ? '\n' : '';
    lineBreak = true;
  }
  for (; index < next.length; index++) {
    text += lineBreak ? `\n${next[index]}` : next[index];
    lineBreak = true;
  }
  return { text, started: true, endsOnLast: true };
}

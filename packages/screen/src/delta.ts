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
  /**
   * How many lines at the end of the text returned so far the first lines of `text` draw again
   * in place (lines both renders hold that changed other than by growing); 0 when `text` only
   * continues that text, or when it is not known to end on them (lines erased, blank lines due).
   */
  redrawn: number;
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
      redrawn: 0,
    };
  }

  // The pieces are joined once: built with += the text was a rope of two string objects
  // per line, and an ended session keeps its last delta (5,000 held lines of a flood were
  // ~16,000 heap objects and ~0.5 MB of the host's heap per ended session, issue 31).
  const pieces: string[] = [];
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
    pieces.push(next[common]!.slice(last.length));
    index++;
    lineBreak = true;
  }
  // Each piece after the first starts on a new line, so a line break before the first
  // is the empty piece in front of it.
  const grew = index > common;
  if (lineBreak && pieces.length === 0) pieces.push('');
  for (let blank = 0; blank < previous.blankLines; blank++) pieces.push('');
  for (; index < next.length; index++) pieces.push(next[index]!);
  const redrawn =
    !grew && previous.endsOnLast && previous.blankLines === 0 ? Math.max(0, prev.length - common) : 0;
  return { text: pieces.join('\n'), started: true, endsOnLast: true, redrawn };
}

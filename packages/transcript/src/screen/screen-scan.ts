/** Private modes that switch to the alternate screen: xterm's 1049, 1047 and the old 47. */
const ALTERNATE_MODES = new Set(['47', '1047', '1049']);
/** A CSI sequence classify() may take: private or not, numeric parameters, final h l H f J. */
const SEQUENCE = /\x1b\[(\??)([0-9;]*)([hlHfJ])/g;
/** The start of one, cut off by the end of the chunk. */
const UNFINISHED = /\x1b(?:\[\??[0-9;]*)?$/;
const NONE: readonly ScreenSwitch[] = Object.freeze([]);
/** A partial `ESC [ params` longer than this is no sequence we care about. */
const MAX_CARRY = 64;

/**
 * A sequence that changes how the transcript reads: a switch to (`enter`) or from (`leave`)
 * the alternate screen, or a `repaint` of the normal screen (cursor addressed: CUP `ESC[r;cH`
 * / `ESC[r;cf`, or the whole screen erased, `ESC[2J`/`ESC[3J`), after which the text no
 * longer continues the line before it. Indexes into the chunk scanned.
 */
export interface ScreenSwitch {
  kind: 'enter' | 'leave' | 'repaint';
  /** Where the sequence starts; negative when it began in an earlier chunk. */
  start: number;
  /** Just after its final byte (always inside this chunk). */
  end: number;
  /** The whole sequence, also when it began in an earlier chunk. */
  sequence: string;
}

/**
 * Finds those sequences in a stream chunk by chunk, one split across chunks included: the
 * unfinished tail of a chunk is carried into the next scan. Native searches only.
 */
export class ScreenScanner {
  #carry = '';

  scan(chunk: string): readonly ScreenSwitch[] {
    // Most of a flood has no escape at all: nothing to find, nothing to carry.
    if (this.#carry === '' && chunk.indexOf('\x1b') === -1) return NONE;
    const shift = this.#carry.length;
    const text = shift === 0 ? chunk : this.#carry + chunk;
    this.#carry = '';
    const found: ScreenSwitch[] = [];
    // One native search for candidates: colours and the like (final 'm') are never looked at.
    SEQUENCE.lastIndex = 0;
    for (let match = SEQUENCE.exec(text); match !== null; match = SEQUENCE.exec(text)) {
      const kind = classify(match[1] === '?', match[2]!, match[3]!);
      const start = match.index;
      const end = start + match[0].length;
      if (kind) found.push({ kind, start: start - shift, end: end - shift, sequence: match[0] });
    }
    // An unfinished sequence at the end is decided with the next chunk.
    const tail = UNFINISHED.exec(text.length > MAX_CARRY ? text.slice(-MAX_CARRY) : text);
    if (tail) this.#carry = tail[0];
    return found;
  }
}

function classify(privateMode: boolean, params: string, final: string): ScreenSwitch['kind'] | undefined {
  if (privateMode) {
    if (final !== 'h' && final !== 'l') return undefined;
    for (const param of params.split(';'))
      if (ALTERNATE_MODES.has(param)) return final === 'h' ? 'enter' : 'leave';
    return undefined;
  }
  if (final === 'H' || final === 'f') return 'repaint';
  if (final === 'J' && (params === '2' || params === '3')) return 'repaint';
  return undefined;
}

/** Private modes that switch to the alternate screen: xterm's 1049, 1047 and the old 47. */
const ALTERNATE_MODES = new Set(['47', '1047', '1049']);
const CSI = '\x1b[';
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

  scan(chunk: string): ScreenSwitch[] {
    const shift = this.#carry.length;
    const text = shift === 0 ? chunk : this.#carry + chunk;
    this.#carry = '';
    const found: ScreenSwitch[] = [];
    let at = text.indexOf(CSI);
    while (at !== -1) {
      let end = at + CSI.length;
      const privateMode = text[end] === '?';
      if (privateMode) end += 1;
      while (end < text.length && isParameter(text.charCodeAt(end))) end += 1;
      if (end === text.length) {
        // Unfinished: decided with the next chunk.
        if (end - at <= MAX_CARRY) this.#carry = text.slice(at);
        return found;
      }
      const kind = classify(
        privateMode,
        text.slice(at + CSI.length + (privateMode ? 1 : 0), end),
        text[end]!,
      );
      if (kind)
        found.push({ kind, start: at - shift, end: end + 1 - shift, sequence: text.slice(at, end + 1) });
      at = text.indexOf(CSI, end);
    }
    // A chunk ending in ESC may begin one.
    if (text.endsWith('\x1b')) this.#carry = '\x1b';
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

function isParameter(code: number): boolean {
  // 0-9 and ';'
  return (code >= 0x30 && code <= 0x39) || code === 0x3b;
}

/** Private modes that switch to the alternate screen: xterm's 1049, 1047 and the old 47. */
const ALTERNATE_MODES = new Set(['47', '1047', '1049']);
const INTRO = '\x1b[?';
/** A partial `ESC [ ? params` longer than this is no mode switch we care about. */
const MAX_CARRY = 64;

/** One switch to (`enter`) or from the alternate screen, by index into the chunk scanned. */
export interface AltScreenSwitch {
  enter: boolean;
  /** Where the sequence starts; negative when it began in an earlier chunk. */
  start: number;
  /** Just after its final byte (always inside this chunk). */
  end: number;
}

/**
 * Finds `ESC [ ? … 1049 h/l` (and 1047, 47) in a stream chunk by chunk, a sequence split
 * across chunks included: the unfinished tail of a chunk is carried into the next scan.
 * Native searches only; a chunk without `ESC [ ?` costs one indexOf.
 */
export class AltScreenScanner {
  #carry = '';

  scan(chunk: string): AltScreenSwitch[] {
    const shift = this.#carry.length;
    const text = shift === 0 ? chunk : this.#carry + chunk;
    this.#carry = '';
    const found: AltScreenSwitch[] = [];
    let at = text.indexOf(INTRO);
    while (at !== -1) {
      let end = at + INTRO.length;
      while (end < text.length && isParameter(text.charCodeAt(end))) end += 1;
      if (end === text.length) {
        // Unfinished: decided with the next chunk.
        if (end - at <= MAX_CARRY) this.#carry = text.slice(at);
        return found;
      }
      const final = text[end];
      if ((final === 'h' || final === 'l') && switchesAlternate(text.slice(at + INTRO.length, end))) {
        found.push({ enter: final === 'h', start: at - shift, end: end + 1 - shift });
      }
      at = text.indexOf(INTRO, end);
    }
    // A chunk ending in ESC or ESC [ may begin a switch.
    if (text.endsWith('\x1b')) this.#carry = '\x1b';
    else if (text.endsWith('\x1b[')) this.#carry = '\x1b[';
    return found;
  }
}

function isParameter(code: number): boolean {
  // 0-9 and ';'
  return (code >= 0x30 && code <= 0x39) || code === 0x3b;
}

function switchesAlternate(params: string): boolean {
  for (const param of params.split(';')) if (ALTERNATE_MODES.has(param)) return true;
  return false;
}

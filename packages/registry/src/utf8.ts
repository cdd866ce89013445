// Byte arithmetic over UTF-16 strings. The log stores chunks as the strings it was given and
// addresses them by UTF-8 byte offsets, so every cut maps a byte offset to a string index
// here, rounding to a character boundary so that no cut ever splits a character.

/** Where a byte offset landed inside a string: the UTF-16 index and the byte offset reached. */
export interface StringPosition {
  index: number;
  byte: number;
}

/** Which way a byte offset inside a character moves: to its start or past its end. */
export type Rounding = 'down' | 'up';

interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/**
 * Replaces lone surrogates with U+FFFD, as UTF-8 encoding would. Byte counts then match what
 * the string holds, so offsets stay exact. Free for one-byte strings (V8 answers at once).
 */
export function wellFormed(text: string): string {
  const candidate = text as unknown as WellFormedString;
  return candidate.isWellFormed() ? text : candidate.toWellFormed();
}

/**
 * Maps the byte offset `target` inside `text` (whose UTF-8 length is `bytes`) to a UTF-16
 * index. A target inside a character rounds to that character's start ('down') or end ('up').
 * `from` is a known position at or before the target, so repeated cuts need not rescan; the
 * scan runs from whichever side is nearer. `text` must be well-formed (see wellFormed).
 */
export function locateByte(
  text: string,
  bytes: number,
  target: number,
  round: Rounding,
  from: StringPosition = { index: 0, byte: 0 },
): StringPosition {
  if (target <= from.byte) return { index: from.index, byte: from.byte };
  if (target >= bytes) return { index: text.length, byte: bytes };
  // One UTF-16 unit per byte means every character is ASCII: offsets are indexes.
  if (text.length === bytes) return { index: target, byte: target };
  return target - from.byte <= bytes - target
    ? scanForward(text, target, round, from)
    : scanBackward(text, bytes, target, round, from);
}

function scanForward(text: string, target: number, round: Rounding, from: StringPosition): StringPosition {
  let index = from.index;
  let byte = from.byte;
  while (byte < target) {
    const code = text.charCodeAt(index);
    let width = 3;
    let units = 1;
    if (code < 0x80) width = 1;
    else if (code < 0x800) width = 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      width = 4;
      units = 2;
    }
    if (byte + width > target) {
      return round === 'down' ? { index, byte } : { index: index + units, byte: byte + width };
    }
    byte += width;
    index += units;
  }
  return { index, byte };
}

function scanBackward(
  text: string,
  bytes: number,
  target: number,
  round: Rounding,
  from: StringPosition,
): StringPosition {
  let index = text.length;
  let byte = bytes;
  while (byte > target && index > from.index) {
    const code = text.charCodeAt(index - 1);
    let width = 3;
    let units = 1;
    if (code < 0x80) width = 1;
    else if (code < 0x800) width = 2;
    else if (code >= 0xdc00 && code <= 0xdfff) {
      width = 4;
      units = 2;
    }
    if (byte - width < target) {
      return round === 'down' ? { index: index - units, byte: byte - width } : { index, byte };
    }
    byte -= width;
    index -= units;
  }
  return { index, byte };
}

/** The last `count` code points of `text` (a surrogate pair is one character, never halved). */
export function lastCharacters(text: string, count: number): string {
  let index = text.length;
  let seen = 0;
  while (index > 0 && seen < count) {
    const code = text.charCodeAt(index - 1);
    const isPair =
      code >= 0xdc00 && code <= 0xdfff && index >= 2 && isHighSurrogate(text.charCodeAt(index - 2));
    index -= isPair ? 2 : 1;
    seen += 1;
  }
  return index === 0 ? text : text.slice(index);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * A copy of `text` that shares no memory with a larger string. V8 keeps a slice's parent
 * alive, so a cap that sliced a huge chunk would otherwise still hold all of it.
 */
export function detach(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

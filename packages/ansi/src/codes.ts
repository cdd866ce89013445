// The control characters the parsers branch on. Names follow ECMA-48.
export const BS = 0x08;
export const HT = 0x09;
export const LF = 0x0a;
export const CR = 0x0d;
export const CAN = 0x18;
export const SUB = 0x1a;
export const ESC = 0x1b;
export const DEL = 0x7f;

// C1 controls as code points. Output is decoded UTF-8, so these only appear when a program
// deliberately encoded a C1 control; xterm.js (and so the screen package) honours them.
export const C1_FIRST = 0x80;
export const C1_LAST = 0x9f;
export const SS2 = 0x8e;
export const SS3 = 0x8f;
export const DCS = 0x90;
export const SOS = 0x98;
export const CSI = 0x9b;
export const OSC = 0x9d;
export const PM = 0x9e;
export const APC = 0x9f;

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Index of the code point after the one starting at `index` (a surrogate pair is one). */
export function nextCodePoint(text: string, index: number): number {
  return isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1))
    ? index + 2
    : index + 1;
}

/** Code points in text[start, end). */
export function countCodePoints(text: string, start = 0, end = text.length): number {
  let count = 0;
  for (let i = start; i < end; i = nextCodePoint(text, i)) count++;
  return count;
}

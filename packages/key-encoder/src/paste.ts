import { booleanOption, invalidOption } from '@procmux/core-types';

/** Starts a bracketed paste (xterm mode 2004). */
export const PASTE_START = '\x1b[200~';
/** Ends a bracketed paste. */
export const PASTE_END = '\x1b[201~';

const MARKERS = /\x1b\[20[01]~/g;

export interface PasteOptions {
  /** Wrap in ESC[200~ … ESC[201~ (default true). Pass the program's negotiated mode here. */
  bracketed?: boolean;
}

/**
 * The bytes for pasting `text`. Bracketed: `ESC[200~ text ESC[201~`, with every
 * `ESC[200~` and `ESC[201~` removed from the text first (repeatedly, so removing one cannot
 * assemble another), so a paste can neither end its bracket early and have the rest run as
 * typed input, nor open a nested one. Unbracketed: the text exactly as given, since without
 * brackets there is nothing to break out of.
 *
 * @example
 * encodePaste('print(1)\nprint(2)'); // '\x1b[200~print(1)\nprint(2)\x1b[201~'
 */
export function encodePaste(text: string, options: PasteOptions = {}): string {
  if (typeof text !== 'string') {
    throw invalidOption('text', 'a string (the text to paste)', { value: text });
  }
  const bracketed = booleanOption('bracketed', options.bracketed, true);
  if (!bracketed) return text;
  return PASTE_START + stripPasteMarkers(text) + PASTE_END;
}

/** Removes every bracketed-paste marker, including ones that removing others would assemble. */
export function stripPasteMarkers(text: string): string {
  let previous: string;
  let current = text;
  do {
    previous = current;
    current = previous.replace(MARKERS, '');
  } while (current !== previous);
  return current;
}

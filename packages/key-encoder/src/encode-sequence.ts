import { invalidOption } from '@procmux/core-types';
import { encodeKey } from './encode-key.js';
import { decodeHexBytes } from './hex.js';

/** What to send: literal text, then hex bytes, then keys, in that order. */
export interface KeySequenceRequest {
  /** Key tokens: `Enter`, `C-c`, `M-Left`, `S-F1`, `^D`, `a`. */
  keys?: readonly string[];
  /** Raw bytes as hex: `0x04` or `04`. Bytes 0x80–0xff must form UTF-8 characters. */
  hex?: readonly string[];
  /** Text sent as-is, before any hex bytes and keys. */
  literal?: string;
  /** The program turned on application cursor keys (DECCKM): unmodified arrows, Home and End send `ESC O x`. */
  applicationCursorKeys?: boolean;
}

/**
 * Encodes keys, hex bytes and literal text into the string to write to a terminal's stdin.
 * The parts are concatenated literal → hex → keys, so `{ literal: 'ls', keys: ['Enter'] }`
 * types a command and runs it. An empty request is the empty string.
 *
 * Throws ERR_INVALID_KEY for an unknown or impossible key (naming it, with the nearest known
 * name) or bad hex, and ERR_INVALID_OPTION for a request of the wrong shape.
 *
 * @example
 * encodeKeySequence({ keys: ['C-c'] });              // '\x03'
 * encodeKeySequence({ keys: ['Up', 'Up', 'Enter'] }); // '\x1b[A\x1b[A\r'
 * encodeKeySequence({ keys: ['C-Up', 'M-PageUp'] });  // '\x1b[1;5A\x1b[5;3~'
 */
export function encodeKeySequence(request: KeySequenceRequest): string {
  if (typeof request !== 'object' || request === null) {
    throw invalidOption('request', 'an object with keys, hex or literal', { value: request });
  }
  const { keys, hex, literal, applicationCursorKeys } = request;
  if (keys !== undefined && !Array.isArray(keys))
    throw invalidOption('keys', 'an array of key names', { value: keys });
  if (hex !== undefined && !Array.isArray(hex))
    throw invalidOption('hex', 'an array of hex bytes', { value: hex });
  if (literal !== undefined && typeof literal !== 'string')
    throw invalidOption('literal', 'a string', { value: literal });
  if (applicationCursorKeys !== undefined && typeof applicationCursorKeys !== 'boolean') {
    throw invalidOption('applicationCursorKeys', 'true or false', { value: applicationCursorKeys });
  }
  const keyBytes = (keys ?? []).map((token) => encodeKey(token, applicationCursorKeys ?? false)).join('');
  return (literal ?? '') + decodeHexBytes(hex ?? []) + keyBytes;
}

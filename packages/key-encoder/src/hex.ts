import { describe, ProcmuxError } from '@procmux/core-types';

const HEX_BYTE = /^(?:0x)?([0-9a-f]{1,2})$/i;

// fatal: refuse invalid UTF-8 instead of replacing it; ignoreBOM: keep EF BB BF as sent.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Turns hex byte tokens (`0x04`, `04`, `1b`) into the text whose UTF-8 encoding is exactly
 * those bytes. Stdin takes text, so bytes 0x80–0xff must together form whole UTF-8
 * characters (`['e2', '9c', '93']` is "✓"); bytes 0x00–0x7f always stand alone.
 */
export function decodeHexBytes(tokens: readonly unknown[]): string {
  const bytes = tokens.map((token) => {
    const match = typeof token === 'string' ? HEX_BYTE.exec(token) : null;
    if (match === null) {
      throw new ProcmuxError(
        'ERR_INVALID_KEY',
        `invalid hex byte ${describe(token)}: write one byte as 1 or 2 hex digits, with or without 0x (e.g. "0x04" or "1b")`,
        { details: { token: typeof token === 'string' ? token : undefined } },
      );
    }
    return Number.parseInt(match[1]!, 16);
  });
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch (cause) {
    const shown = bytes.map((byte) => `0x${byte.toString(16).padStart(2, '0')}`).join(' ');
    throw new ProcmuxError(
      'ERR_INVALID_KEY',
      `hex bytes ${shown} are not valid UTF-8: stdin takes text, so bytes 0x80–0xff must form whole ` +
        'UTF-8 characters (bytes 0x00–0x7f are always allowed)',
      { cause, details: { hex: shown } },
    );
  }
}

import { describe, ProcmuxError } from '@procmux/core-types';
import { CONTROL_CHARACTERS_HINT, controlCharacter } from './control.js';
import { findKey, type KeyDefinition } from './key-table.js';
import { type Modifiers, modifierPrefix, parseToken, xtermModifier } from './modifiers.js';
import { nearestKeyName, rewriteCommonSpelling } from './suggest.js';

const ESC = '\x1b';

/**
 * The bytes for one key token: a single character (`a`, `é`), a key name (`Enter`, `F5`,
 * case-insensitive), either with `C-`/`M-`/`S-` prefixes, or the caret form `^C`.
 * Throws ERR_INVALID_KEY for anything else, naming the token and the nearest known name.
 */
export function encodeKey(token: unknown, applicationCursorKeys = false): string {
  if (typeof token !== 'string' || token === '') {
    throw new ProcmuxError(
      'ERR_INVALID_KEY',
      `a key must be a non-empty string such as "Enter", "C-c" or "a" (got ${describe(token)})`,
      { details: { token: typeof token === 'string' ? token : undefined } },
    );
  }
  const { modifiers, key } = parseToken(token);
  if ([...key].length === 1) return encodeCharacter(token, key, modifiers);
  const definition = findKey(key);
  if (definition === undefined) throw unknownKey(token, key, modifiers);
  return encodeNamedKey(token, definition, modifiers, applicationCursorKeys);
}

function encodeCharacter(token: string, char: string, modifiers: Modifiers): string {
  let bytes = char;
  if (modifiers.shift) {
    const upper = char.toUpperCase();
    if (upper === char.toLowerCase() || [...upper].length !== 1) {
      throw invalid(
        token,
        `Shift changes only letters (S-a is "A"); send ${JSON.stringify(char)} without S-`,
      );
    }
    bytes = upper;
  }
  if (modifiers.ctrl) {
    const control = controlCharacter(bytes);
    if (control === undefined) {
      throw invalid(
        token,
        `Ctrl has no terminal code for ${JSON.stringify(char)}; Ctrl works with ${CONTROL_CHARACTERS_HINT}`,
      );
    }
    bytes = control;
  }
  // Alt is ESC before the key ("meta sends escape"), which is what readline and vim expect.
  return modifiers.alt ? ESC + bytes : bytes;
}

function encodeNamedKey(
  token: string,
  key: KeyDefinition,
  modifiers: Modifiers,
  applicationCursorKeys: boolean,
): string {
  if (key.modified !== undefined) {
    const modifier = xtermModifier(modifiers);
    if (modifier === 1) return (applicationCursorKeys && key.applicationSequence) || key.sequence;
    return `${ESC}[${key.modified.param};${modifier}${key.modified.final}`;
  }
  let bytes = key.sequence;
  if (modifiers.ctrl || modifiers.shift) {
    const form = modifiers.ctrl && modifiers.shift ? undefined : modifiers.ctrl ? key.ctrl : key.shift;
    if (form === undefined) {
      const allowed = ['M-', key.ctrl === undefined ? '' : 'C-', key.shift === undefined ? '' : 'S-'].filter(
        Boolean,
      );
      throw invalid(
        token,
        `a terminal has no code for ${modifierPrefix({ ...modifiers, alt: false })}${key.name}; ` +
          `${key.name} takes ${allowed.join(' or ')}`,
      );
    }
    bytes = form;
  }
  return modifiers.alt ? ESC + bytes : bytes;
}

function unknownKey(token: string, key: string, modifiers: Modifiers): ProcmuxError {
  const suggestion = suggestionFor(token, key, modifiers);
  const hint = suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
  return new ProcmuxError(
    'ERR_INVALID_KEY',
    `unknown key ${describe(token)}${hint}. A key is one character, a name (Enter, Tab, Escape, ` +
      'Space, Backspace, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1–F12, BTab), ' +
      'either with C-, M-, S- prefixes, or ^X for Ctrl+X',
    { details: { token, suggestion } },
  );
}

function suggestionFor(token: string, key: string, modifiers: Modifiers): string | undefined {
  const rewritten = rewriteCommonSpelling(token);
  if (rewritten !== undefined && isValidKey(rewritten)) return rewritten;
  const nearest = nearestKeyName(key);
  if (nearest === undefined) return undefined;
  const withModifiers = modifierPrefix(modifiers) + nearest;
  return isValidKey(withModifiers) ? withModifiers : nearest;
}

function isValidKey(token: string): boolean {
  try {
    encodeKey(token);
    return true;
  } catch {
    return false;
  }
}

function invalid(token: string, why: string): ProcmuxError {
  return new ProcmuxError('ERR_INVALID_KEY', `key ${describe(token)}: ${why}`, { details: { token } });
}

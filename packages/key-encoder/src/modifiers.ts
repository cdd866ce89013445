/** The modifiers a key token asks for. */
export interface Modifiers {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

/** A token split into its modifiers and the key they apply to. */
export interface ParsedToken {
  modifiers: Modifiers;
  /** A single character or a key name. */
  key: string;
}

/**
 * Splits `C-M-S-x` prefixes (any order, either case, as tmux accepts them) and the caret
 * form `^X` (Ctrl+X) off a token. A prefix needs something after it, so `C-` alone and `-`
 * stay keys. Repeating a modifier (`C-C-a`) means the same as saying it once.
 */
export function parseToken(token: string): ParsedToken {
  const modifiers: Modifiers = { ctrl: false, alt: false, shift: false };
  let rest = token;
  while (rest.length > 2 && rest[1] === '-') {
    const flag = PREFIXES[rest[0]!.toUpperCase()];
    if (flag === undefined) break;
    modifiers[flag] = true;
    rest = rest.slice(2);
  }
  if (rest.startsWith('^') && [...rest].length === 2) {
    modifiers.ctrl = true;
    rest = rest.slice(1);
  }
  return { modifiers, key: rest };
}

const PREFIXES: Readonly<Record<string, keyof Modifiers>> = { C: 'ctrl', M: 'alt', S: 'shift' };

/** The xterm modifier parameter: 1 + shift + 2·alt + 4·ctrl (1 means none). */
export function xtermModifier({ shift, alt, ctrl }: Modifiers): number {
  return 1 + (shift ? 1 : 0) + (alt ? 2 : 0) + (ctrl ? 4 : 0);
}

/** The prefix spelling of a set of modifiers, for messages: `C-M-`. */
export function modifierPrefix({ ctrl, alt, shift }: Modifiers): string {
  return `${ctrl ? 'C-' : ''}${alt ? 'M-' : ''}${shift ? 'S-' : ''}`;
}

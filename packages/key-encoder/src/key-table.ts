// The named keys, as the kerkov reference's key map lists them, plus the tmux spellings
// (PPage, NPage, IC, DC) agents already know from `tmux send-keys`.

/** How a key reports modifiers the xterm way: `ESC [ <param> ; <modifier> <final>`. */
export interface XtermModifiedForm {
  readonly param: number;
  readonly final: string;
}

/** One named key and the bytes a terminal sends for it. */
export interface KeyDefinition {
  /** The canonical name. Names and aliases match case-insensitively. */
  readonly name: string;
  readonly aliases: readonly string[];
  /** Bytes for the key with no modifier. */
  readonly sequence: string;
  /** Bytes with no modifier while the program has application cursor keys on (DECCKM). */
  readonly applicationSequence?: string;
  /** Present for keys that carry modifiers as an xterm parameter (arrows, Home/End, F-keys, …). */
  readonly modified?: XtermModifiedForm;
  /** Legacy keys only: what Ctrl turns the key into, where a terminal sends something distinct. */
  readonly ctrl?: string;
  /** Legacy keys only: what Shift turns the key into, where a terminal sends something distinct. */
  readonly shift?: string;
}

const ESC = '\x1b';
const CSI = `${ESC}[`;
const SS3 = `${ESC}O`;

function legacy(
  name: string,
  aliases: string[],
  sequence: string,
  extra: { ctrl?: string; shift?: string } = {},
) {
  return { name, aliases, sequence, ...extra };
}

function cursor(name: string, final: string, sequence = `${CSI}${final}`): KeyDefinition {
  return {
    name,
    aliases: [],
    sequence,
    applicationSequence: `${SS3}${final}`,
    modified: { param: 1, final },
  };
}

function tilde(name: string, aliases: string[], param: number): KeyDefinition {
  return { name, aliases, sequence: `${CSI}${param}~`, modified: { param, final: '~' } };
}

function functionKey(n: number): KeyDefinition {
  if (n <= 4) {
    const final = 'PQRS'[n - 1]!;
    return { name: `F${n}`, aliases: [], sequence: `${SS3}${final}`, modified: { param: 1, final } };
  }
  // xterm skips 16 and 22: F5 is 15, F6–F10 are 17–21, F11–F12 are 23–24.
  const param = [15, 17, 18, 19, 20, 21, 23, 24][n - 5]!;
  return tilde(`F${n}`, [], param);
}

/** Every named key, in the order of the reference's table. */
export const KEY_TABLE: readonly KeyDefinition[] = Object.freeze(
  [
    legacy('Enter', ['Return'], '\r'),
    legacy('Tab', [], '\t', { shift: `${CSI}Z` }),
    legacy('Escape', ['Esc'], ESC),
    legacy('Space', [], ' ', { ctrl: '\x00' }),
    legacy('Backspace', ['BSpace'], '\x7f', { ctrl: '\x08' }),
    cursor('Up', 'A'),
    cursor('Down', 'B'),
    cursor('Right', 'C'),
    cursor('Left', 'D'),
    // Unmodified Home/End are the VT220 codes of the reference; modified ones use xterm's
    // `CSI 1;m H/F`, which is what terminfo and readline know (tmux sends the same pair).
    cursor('Home', 'H', `${CSI}1~`),
    cursor('End', 'F', `${CSI}4~`),
    tilde('PageUp', ['PgUp', 'PPage'], 5),
    tilde('PageDown', ['PgDn', 'NPage'], 6),
    tilde('Insert', ['Ins', 'IC'], 2),
    tilde('Delete', ['Del', 'DC'], 3),
    ...Array.from({ length: 12 }, (_, i) => functionKey(i + 1)),
    legacy('BTab', [], `${CSI}Z`),
  ].map((key) => Object.freeze({ ...key, aliases: Object.freeze([...key.aliases]) })),
);

const BY_NAME = new Map<string, KeyDefinition>();
for (const key of KEY_TABLE) {
  for (const name of [key.name, ...key.aliases]) BY_NAME.set(name.toLowerCase(), key);
}

/** The named key called `name` (case-insensitive), if there is one. */
export function findKey(name: string): KeyDefinition | undefined {
  return BY_NAME.get(name.toLowerCase());
}

/** Every name and alias, canonical spelling, table order. */
export function keyNames(): string[] {
  return KEY_TABLE.flatMap((key) => [key.name, ...key.aliases]);
}

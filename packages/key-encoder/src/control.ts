// What Ctrl does to a character in a terminal without extended key reporting: it clears
// bits 5 and 6, so 'c' (0x63) and 'C' (0x43) both become ETX (0x03), which the terminal
// driver turns into SIGINT.

/** The characters xterm maps outside the 0x40–0x7f block: its legacy Ctrl+digit and friends. */
const SPECIAL: Readonly<Record<string, string>> = {
  ' ': '\x00',
  '2': '\x00',
  '3': '\x1b',
  '4': '\x1c',
  '5': '\x1d',
  '6': '\x1e',
  '7': '\x1f',
  '8': '\x7f',
  '/': '\x1f',
  '?': '\x7f',
};

/** The control character Ctrl+`char` sends, or undefined when a terminal has none. */
export function controlCharacter(char: string): string | undefined {
  const special = SPECIAL[char];
  if (special !== undefined) return special;
  const code = char.length === 1 ? char.charCodeAt(0) : -1;
  // '@', 'A'–'Z', '[', '\', ']', '^', '_' and their lowercase row '`', 'a'–'z'.
  if (code >= 0x40 && code <= 0x7a && code !== 0x60) return String.fromCharCode(code & 0x1f);
  return undefined;
}

/** What Ctrl works with, for error messages. */
export const CONTROL_CHARACTERS_HINT = 'letters, @ [ \\ ] ^ _ ? / space and the digits 2–8';

/** Quiet this long with an unfinished last line reads as a prompt where the kernel is not asked. */
export const HEURISTIC_QUIET_MS = 500;

const SECRET_PROMPT = /pass(word|phrase)|secret|token|PIN\b/i;

/**
 * The fallback on macOS and Windows (and where /proc cannot be read): the output went quiet
 * with an unfinished last line, which is what a prompt looks like. It guesses: a progress line
 * paused mid-way reads the same. Echo is only guessed from the prompt's words.
 */
export function heuristicWaiting(facts: { quietMs: number; prompt: string }): {
  waiting: boolean;
  echo: boolean;
} {
  const waiting = facts.quietMs >= HEURISTIC_QUIET_MS && facts.prompt.trim() !== '';
  return { waiting, echo: !SECRET_PROMPT.test(facts.prompt) };
}

/** Most characters of a prompt reported. */
export const MAX_PROMPT_CHARS = 200;

/**
 * The prompt: the unfinished last line of the output (ANSI already stripped), after the last
 * carriage return, trimmed. Empty when the output ends with a newline.
 */
export function promptLine(text: string): string {
  const lastBreak = text.lastIndexOf('\n');
  let line = text.slice(lastBreak + 1);
  const cr = line.replace(/\r+$/, '').lastIndexOf('\r');
  if (cr >= 0) line = line.slice(cr + 1);
  line = line.trim();
  return line.length <= MAX_PROMPT_CHARS ? line : line.slice(line.length - MAX_PROMPT_CHARS);
}

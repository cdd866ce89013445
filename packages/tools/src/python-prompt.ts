// Python's own prompt (3.12 and older: no bracketed paste) reads a paste line by line as typed,
// and ends a block at its first blank line: a function with a blank line inside ran half and
// failed with `IndentationError: unexpected indent`, and a statement after a block without a
// blank line before it was `SyntaxError: invalid syntax`. The lines are fitted to what that
// prompt needs, as a person pasting there does by hand, and the reply says what changed.

/** Words that go on with the statement above them at the same indentation. */
const CONTINUATIONS = new Set(['elif', 'else', 'except', 'finally']);
/** Words that open a statement with a body: the prompt waits for a blank line after it. */
const COMPOUND = new Set(['if', 'while', 'for', 'def', 'class', 'with', 'try', 'async']);

/** What fitting a paste to Python's prompt changed. */
export interface PythonPromptFit {
  /** The lines to type, each ended by `\n` as Python's prompt reads them. */
  text: string;
  /** Blank lines inside a block left out (they would end it). */
  dropped: number;
  /** Blank lines put after a block, before the statement that follows it. */
  added: number;
  /** The text ended inside a block: its last line is sent, and the prompt waits at `...` for the blank line that submit gives. */
  openBlock: boolean;
  /** Line ends `\r\n` written as `\n` (Python read each `\r\n` as a line and a blank line). */
  crlf: boolean;
}

/** Where a line starts: inside a string (its quote), inside brackets, or after a backslash. */
interface ScanState {
  quote: string | null;
  depth: number;
  continued: boolean;
}

/**
 * The text fitted to Python's prompt, or undefined when there is nothing to change or the text
 * cannot be read whole (a string or a bracket left open: sent as given). One line is never
 * changed: the model may be typing a block line by line.
 */
export function fitPythonPrompt(text: string): PythonPromptFit | undefined {
  if (!text.includes('\n')) return undefined;
  const crlf = text.includes('\r\n');
  const lines = text.split(/\r?\n/);
  // A text ending with a line break: the last line is sent, nothing is left on the prompt line.
  const endsWithBreak = lines.at(-1) === '';
  if (endsWithBreak) lines.pop();
  const out: string[] = [];
  // Blank and comment lines not yet written: what is done with them depends on the next code.
  let held: string[] = [];
  let dropped = 0;
  let added = 0;
  let inCompound = false;
  let decorating = false;
  let started = false;
  const state: ScanState = { quote: null, depth: 0, continued: false };
  for (const line of lines) {
    const atStatement = state.quote === null && state.depth === 0 && !state.continued;
    scanLine(line, state);
    if (!atStatement) {
      append(out, held);
      out.push(line);
      held = [];
      continue;
    }
    const code = line.trimStart();
    if (code === '' || code.startsWith('#')) {
      held.push(line);
      continue;
    }
    const indented = code.length < line.length;
    const word = /^[A-Za-z_]+/.exec(code)?.[0] ?? '';
    // `else:` after an if's body, or the next decorator or the def under a decorator.
    const goesOn = started && !indented && ((inCompound && CONTINUATIONS.has(word)) || decorating);
    if (started && inCompound && (indented || goesOn)) {
      // Inside the block: a blank line here would end it.
      const blanks = held.filter((h) => h.trim() === '').length;
      dropped += blanks;
      append(
        out,
        held.filter((h) => h.trim() !== ''),
      );
    } else if (started && inCompound && !indented && !held.some((h) => h.trim() === '')) {
      // A new statement after a block: the prompt needs the blank line that ends the block.
      out.push('');
      append(out, held);
      added += 1;
    } else {
      append(out, held);
    }
    held = [];
    out.push(line);
    if (!indented) {
      if (!goesOn) inCompound = opensBlock(code, word);
      decorating = code.startsWith('@');
      started = true;
    }
  }
  // A string or a bracket left open, or a backslash at the end: not read whole, sent as given.
  if (state.quote !== null || state.depth !== 0 || state.continued) return undefined;
  append(out, held);
  const lastCode = [...out].reverse().find((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  // The last block's own lines are in: the blank line that runs it is submit's.
  const openBlock =
    inCompound && !endsWithBreak && !held.some((h) => h.trim() === '') && /^\s/.test(lastCode ?? '');
  if (dropped === 0 && added === 0 && !openBlock && !crlf) return undefined;
  const fitted = out.join('\n') + (endsWithBreak || openBlock ? '\n' : '');
  return { text: fitted, dropped, added, openBlock, crlf };
}

/** Appends one by one: a spread of a paste's 200,000 blank lines overflowed the call stack. */
function append(out: string[], lines: readonly string[]): void {
  for (const line of lines) out.push(line);
}

/** Whether a statement at the left margin opens a block (`match x:` too, not `match = 1`). */
function opensBlock(code: string, word: string): boolean {
  if (code.startsWith('@')) return true;
  if (COMPOUND.has(word)) return true;
  return word === 'match' && /:\s*(#.*)?$/.test(code);
}

/** Follows strings, brackets and backslash continuations through one line. */
function scanLine(line: string, state: ScanState): void {
  state.continued = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (state.quote !== null) {
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (line.startsWith(state.quote, i)) {
        i += state.quote.length;
        state.quote = null;
        continue;
      }
      i += 1;
      continue;
    }
    if (c === '#') return;
    if (c === '"' || c === "'") {
      const triple = line.startsWith(c.repeat(3), i);
      state.quote = triple ? c.repeat(3) : c;
      i += state.quote.length;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') state.depth += 1;
    else if (c === ')' || c === ']' || c === '}') state.depth = Math.max(0, state.depth - 1);
    else if (c === '\\' && i === line.length - 1) state.continued = true;
    i += 1;
  }
  // A one-quote string does not go on to the next line (without a backslash, it is an error).
  if (state.quote === "'" || state.quote === '"') {
    if (!line.endsWith('\\')) state.quote = null;
  }
}

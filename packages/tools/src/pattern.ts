// Caller-supplied patterns run on RE2's linear-time engine (re2js, pure JavaScript), never on
// the JavaScript engine's backtracking one: `^(a+)+$` against 27 a's and a "!" froze the whole
// server for 10 s, doubling per character, and no timeout can interrupt a running RegExp.
import { RE2JS } from 're2js';
import { echo } from './echo.js';
import { invalid } from './params.js';

/** Longest pattern accepted. */
export const MAX_PATTERN_CHARS = 4_096;

/** A compiled caller pattern: finds the first match in a text, in time linear in the text. */
export interface TextPattern {
  /** The pattern as the caller wrote it. */
  readonly source: string;
  /** The first match's text, or undefined. */
  find(text: string): string | undefined;
  /** The first match: its text and where it ends in `text`, or undefined. */
  findEnd(text: string): { text: string; end: number } | undefined;
}

/**
 * Compiles a caller's pattern (multiline: `^` and `$` match at line ends) for RE2. JavaScript's
 * `\uXXXX` and `\u{X}` escapes are accepted (RE2 writes them `\x{X}`); what RE2 cannot do in
 * linear time (backreferences, lookaround) is ERR_INVALID_OPTION saying what is allowed.
 */
export function compilePattern(source: string, name = 'pattern'): TextPattern {
  if (source.length > MAX_PATTERN_CHARS) {
    throw invalid(
      name,
      `${name} is ${source.length.toLocaleString('en-US')} characters; at most ${MAX_PATTERN_CHARS}`,
      { max: MAX_PATTERN_CHARS },
    );
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(toRe2Syntax(source), RE2JS.MULTILINE);
  } catch (error) {
    const why =
      error instanceof Error
        ? error.message.replace(/^error parsing regexp: /, '').replace('`(?m)', '`')
        : String(error);
    throw invalid(
      name,
      `${name} ${echo(source)} cannot be used: ${why.slice(0, 200)}. Patterns run on a linear-time engine ` +
        '(RE2 syntax): character classes, \\d \\w \\s \\b, quantifiers, groups, alternation, (?i) work; ' +
        'backreferences (\\1, \\k<name>) and lookaround ((?=, (?!, (?<=, (?<!) do not.',
    );
  }
  return {
    source,
    find(text) {
      const matcher = compiled.matcher(text);
      return matcher.find() ? (matcher.group() ?? '') : undefined;
    },
    findEnd(text) {
      const matcher = compiled.matcher(text);
      return matcher.find() ? { text: matcher.group() ?? '', end: matcher.end() } : undefined;
    },
  };
}

/** `\uXXXX` / `\u{X}` (JavaScript) as `\x{X}` (RE2); an escaped backslash before a `u` is left alone. */
function toRe2Syntax(source: string): string {
  return source.replace(
    /(?<!\\)((?:\\\\)*)\\u(?:([0-9a-fA-F]{4})|\{([0-9a-fA-F]{1,6})\})/g,
    (_all, slashes: string, four: string | undefined, braced: string | undefined) =>
      `${slashes}\\x{${four ?? braced}}`,
  );
}

// Node's REPL (no bracketed paste in Node 20) runs each pasted line as soon as what it has read
// is a whole statement: `const x = [1, 2, 3]` ran alone, the next line `  .map((v) => v * 2)`
// was "Invalid REPL keyword", and x stayed [1, 2, 3] with no error about it. A line that goes on
// the expression above it (a member access, a ternary's `?` and `:`, `??`, `||`, `&&` at its
// start) is joined to that line, as the file it was formatted for reads it.

/** How a line that goes on the expression above it starts. */
const GOES_ON = /^(\?\.|\.[\p{ID_Start}$_#]|\?\?|\?|:|\|\||&&)/u;
/** The REPL's own commands, which a line of its own may mean (`.exit` after the code). */
const REPL_COMMAND = /^\.(break|clear|editor|exit|help|load|save)\b/;
/** Characters after which a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set([
  '',
  '(',
  ',',
  '=',
  ':',
  '[',
  '!',
  '&',
  '|',
  '?',
  '{',
  '}',
  ';',
  '+',
  '-',
  '*',
  '%',
  '<',
  '>',
  '~',
  '^',
]);

/** What fitting a paste to Node's REPL changed. */
export interface NodePromptFit {
  text: string;
  /** Lines joined to the line above them. */
  joined: number;
}

/** Where the scan stands between lines: open brackets and templates, or a block comment. */
interface JsScan {
  stack: string[];
  inBlockComment: boolean;
  /** A string or regular expression not closed on its line: the text is not read whole. */
  broken: boolean;
}

/**
 * Whether a session's command runs Node's REPL: `node` (or `nodejs`) with options only, or with
 * `-i`. A script (`node server.js`) prompts only if it chose to, in its own way.
 */
export function runsNodeRepl(command: string, args: readonly string[], shell: boolean): boolean {
  const words = shell ? command.trim().split(/\s+/) : [command, ...args];
  const program = words[0]?.split('/').at(-1);
  if (program !== 'node' && program !== 'nodejs') return false;
  const rest = words.slice(1);
  return rest.includes('-i') || rest.includes('--interactive') || rest.every((word) => word.startsWith('-'));
}

/**
 * The text fitted to Node's REPL, or undefined when nothing changes or the text cannot be read
 * whole (a string, template, comment or bracket left open: sent as given).
 */
export function fitNodePrompt(text: string): NodePromptFit | undefined {
  if (!text.includes('\n')) return undefined;
  const out: string[] = [];
  // Where each line of `out` has its `//` comment, if it has one.
  const comments: (number | undefined)[] = [];
  const scan: JsScan = { stack: [], inBlockComment: false, broken: false };
  let joined = 0;
  let previousIsCode = false;
  for (const line of text.split('\n')) {
    const atTop = scan.stack.length === 0 && !scan.inBlockComment;
    const startedInComment = scan.inBlockComment;
    const comment = scanJsLine(line, scan);
    if (scan.broken) return undefined;
    const code = line.trim();
    if (atTop && previousIsCode && GOES_ON.test(code) && !REPL_COMMAND.test(code)) {
      // The line above without its `//` comment, then this line, then that comment.
      const above = out.pop()!;
      const aboveAt = comments.pop();
      const aboveCode = aboveAt === undefined ? above : above.slice(0, aboveAt).trimEnd();
      const aboveComment = aboveAt === undefined ? '' : above.slice(aboveAt);
      const indent = line.length - line.trimStart().length;
      out.push(`${aboveCode} ${code}${aboveComment === '' ? '' : ` ${aboveComment}`}`);
      comments.push(
        comment !== undefined
          ? aboveCode.length + 1 + comment - indent
          : aboveComment === ''
            ? undefined
            : aboveCode.length + 1 + code.length + 1,
      );
      joined += 1;
    } else {
      out.push(line);
      comments.push(comment);
    }
    previousIsCode = !startedInComment && code !== '' && !code.startsWith('//') && !code.startsWith('/*');
  }
  if (scan.stack.length > 0 || scan.inBlockComment || joined === 0) return undefined;
  return { text: out.join('\n'), joined };
}

/**
 * Follows strings, templates, comments, regular expressions and brackets through one line.
 * Returns where a `//` comment starts on it, if one does.
 */
function scanJsLine(line: string, scan: JsScan): number | undefined {
  let last = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (scan.inBlockComment) {
      const end = line.indexOf('*/', i);
      if (end < 0) return undefined;
      scan.inBlockComment = false;
      i = end + 2;
      continue;
    }
    if (scan.stack.at(-1) === '`') {
      if (c === '\\') i += 2;
      else if (c === '`') {
        scan.stack.pop();
        last = '`';
        i += 1;
      } else if (line.startsWith('${', i)) {
        scan.stack.push('${');
        i += 2;
      } else i += 1;
      continue;
    }
    if (c === ' ' || c === '\t') {
      i += 1;
      continue;
    }
    if (line.startsWith('//', i)) return i;
    if (line.startsWith('/*', i)) {
      scan.inBlockComment = true;
      i += 2;
      continue;
    }
    if (c === '"' || c === "'" || (c === '/' && BEFORE_REGEX.has(last))) {
      const end = closing(line, i, c);
      if (end < 0) {
        scan.broken = true;
        return undefined;
      }
      i = end + 1;
      last = c === '/' ? ')' : c;
      continue;
    }
    if (c === '`') scan.stack.push('`');
    else if (c === '(' || c === '[' || c === '{') scan.stack.push(c);
    else if (c === ')' || c === ']' || c === '}') {
      const open = scan.stack.pop();
      const matches = open === (c === ')' ? '(' : c === ']' ? '[' : '{') || (c === '}' && open === '${');
      if (!matches) {
        scan.broken = true;
        return undefined;
      }
    }
    last = /[\p{ID_Continue}$]/u.test(c) ? 'a' : c;
    i += 1;
  }
  return undefined;
}

/** The index of the quote (or regex slash) closing the one at `start`, or -1 on this line. */
function closing(line: string, start: number, quote: string): number {
  let inClass = false;
  for (let i = start + 1; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (quote === '/' && c === '[') inClass = true;
    else if (quote === '/' && c === ']') inClass = false;
    else if (c === quote && !inClass) return i;
  }
  return -1;
}

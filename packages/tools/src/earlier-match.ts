// wait_for matches only output no earlier call returned, so a model that waits for a line
// exec's reply already showed (a server's "ready") waits out its whole timeout. When a wait
// ends without its pattern, the log's last lines are searched: a line there that matches was
// returned before the wait (new lines were matched as they came), and the verdict says so.
import type { TextPattern } from './pattern.js';
import type { ToolSession } from './types.js';

/** Lines of the log's end searched (a log page's default). */
const EARLIER_LINES = 200;

export interface EarlierMatch {
  /** 1-based line number in the log (as `log` numbers lines). */
  line: number;
  text: string;
}

/** The last line of the log's end that `pattern` matches, or undefined (also when unreadable). */
export async function earlierMatch(
  session: Pick<ToolSession, 'log'>,
  pattern: TextPattern,
): Promise<EarlierMatch | undefined> {
  const page = await session.log({ limit: EARLIER_LINES }).catch(() => undefined);
  if (page === undefined || page.lines === 0) return undefined;
  const lines = page.text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (pattern.find(lines[i]!) !== undefined) return { line: page.offset + i + 1, text: lines[i]! };
  }
  return undefined;
}

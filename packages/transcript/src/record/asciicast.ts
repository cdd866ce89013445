import type { OutputLog } from '../log/output-log.js';
import type { OutputTimeline } from './output-timeline.js';

/** What goes in an asciicast's header line. */
export interface AsciicastSource {
  id: string;
  command: string;
  args: readonly string[];
  startedAt: number;
  /** The terminal at the start; pipe sessions use 80×24 (they have no terminal). */
  columns: number;
  rows: number;
  /** Pipe output has bare line feeds; a terminal replaying it needs CR LF. */
  pipe: boolean;
}

/** Bare LF → CR LF, so text written to pipes replays in a terminal as it reads. */
export function lfToCrlf(text: string): string {
  return text.replace(/(?<!\r)\n/g, '\r\n');
}

/**
 * The session's retained output as an asciicast v2 file (the format asciinema plays): a JSON
 * header line, then `[seconds, "o", text]` per arrival and `[seconds, "r", "COLSxROWS"]` per
 * resize, seconds counted from the session's start. Output the log discarded is not in it
 * (the first event is then later than 0); input never is.
 */
export function asciicast(log: OutputLog, timeline: OutputTimeline, source: AsciicastSource): string {
  const { bytes, first } = readAll(log);
  timeline.prune(first);
  const total = first + bytes.length;
  const marks = timeline.marks();
  const events: Array<[number, string, string]> = [];
  for (let i = 0; i < marks.length; i++) {
    const [offset, at] = marks[i]!;
    const start = Math.max(offset, first);
    const end = i + 1 < marks.length ? marks[i + 1]![0] : total;
    if (end <= start) continue;
    const text = bytes.subarray(start - first, end - first).toString('utf8');
    events.push([at, 'o', source.pipe ? lfToCrlf(text) : text]);
  }
  const startAt = events[0]?.[0] ?? source.startedAt;
  let size = { columns: source.columns, rows: source.rows };
  for (const resize of timeline.resizes) {
    // The header carries the size the first kept event was drawn at.
    if (resize.at <= startAt) size = resize;
    else events.push([resize.at, 'r', `${resize.columns}x${resize.rows}`]);
  }
  events.sort((a, b) => a[0] - b[0]);
  const header = {
    version: 2,
    width: size.columns,
    height: size.rows,
    timestamp: Math.floor(source.startedAt / 1000),
    command: [source.command, ...source.args].join(' '),
    title: source.id,
  };
  const lines = [JSON.stringify(header)];
  for (const [at, kind, data] of events) {
    const seconds = Math.max(0, at - source.startedAt) / 1000;
    lines.push(JSON.stringify([Number(seconds.toFixed(6)), kind, data]));
  }
  return `${lines.join('\n')}\n`;
}

/** Every retained byte, and the offset of the first (the log starts pages on a whole character). */
function readAll(log: OutputLog): { bytes: Buffer; first: number } {
  const parts: Buffer[] = [];
  let cursor = log.firstRetainedOffset;
  let first: number | undefined;
  for (;;) {
    const page = log.read({ cursor });
    const chunk = Buffer.from(page.data, 'utf8');
    first ??= page.cursor - chunk.length;
    parts.push(chunk);
    if (page.eof || page.cursor === cursor) break;
    cursor = page.cursor;
  }
  return { bytes: Buffer.concat(parts), first: first ?? log.totalBytes };
}

// A pipe's log and its line index fed chunk by chunk, as a session feeds them; shared by the
// index's tests.
import { TranscriptIndex } from '../../src/lines/transcript-index.js';
import { OutputLog } from '../../src/log/output-log.js';

/** `sized`: each chunk's size in bytes is handed to the index, as a session does. */
export function indexed(
  chunks: string[],
  sized: boolean,
  maxRetainedBytes?: number,
): { log: OutputLog; index: TranscriptIndex } {
  const log = new OutputLog({ maxChunkBytes: 4096, ...(maxRetainedBytes ? { maxRetainedBytes } : {}) });
  const index = new TranscriptIndex();
  for (const chunk of chunks) {
    const before = log.totalBytes;
    const size = log.append('stdout', chunk);
    index.add(chunk, before, sized ? size : undefined);
  }
  return { log, index };
}

/** The chunks of a stream, joined. */
export async function joined(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

// Waiting on a session's output through `process action=poll`, bounded and saying where it stood:
// a bare loop of polls only hits the test timeout, naming nothing.

/** One poll's reply as the tests read it. */
export interface PolledText {
  text: string;
  isError: boolean;
}

/**
 * Polls (`poll()`, one `process action=poll` call) until the output gathered, `start` first,
 * matches `pattern`; returns it. Fails after 20 s naming `what`, with the output seen and
 * `hostLog()` (the server's stderr).
 */
export async function pollUntil(
  poll: () => Promise<PolledText>,
  pattern: RegExp,
  what: string,
  hostLog: () => string,
  start = '',
): Promise<string> {
  const deadline = Date.now() + 20_000;
  let seen = start;
  while (!pattern.test(seen)) {
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what} (${pattern}); output so far:\n${seen.slice(-1500)}\nthe host's log:\n${hostLog().slice(-2500)}`,
      );
    }
    const polled = await poll();
    if (polled.isError) throw new Error(`a poll failed while waiting for ${what}: ${polled.text}`);
    seen += polled.text;
  }
  return seen;
}

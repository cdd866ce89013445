// tmux ends its server once its last session is gone (exit-empty). A start sent in that instant
// reaches a server on its way out and fails with "server exited unexpectedly": the session was
// never made (the server was empty, or it would not be exiting), so the start is sent again and
// starts a new server. Seen once in 100 concurrent starts of a fresh-clone run.
const SERVER_GONE = /server exited unexpectedly|lost server/;

/** How many times a start meets a server on its way out before its error is the answer. */
export const START_ATTEMPTS = 3;

/** Runs a start (`new-session …`) again while it only met a server that was exiting. */
export async function runStart<T extends { code: number; stderr: string }>(
  run: () => Promise<T>,
  attempts = START_ATTEMPTS,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const out = await run();
    if (out.code === 0 || attempt >= attempts || !SERVER_GONE.test(out.stderr)) return out;
  }
}

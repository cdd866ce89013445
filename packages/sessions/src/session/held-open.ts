// An awaited wait() or kill() holds the host's event loop open until it settles. A tmux-held
// pane is followed by unref'd timers (a detached session must never keep its host alive), so
// without this a script whose last step is `await session.kill()` or `await session.wait()`
// ended with Node's exit code 13 (an unsettled top-level await) while the pane was still ending.
export function heldOpen<T>(work: Promise<T>): Promise<T> {
  const timer = setInterval(() => {}, 2 ** 30);
  return work.finally(() => clearInterval(timer));
}

// Deadlines so that a hung process ends a case with an error instead of hanging the harness.

/** Resolves or rejects like `promise`, or rejects after `ms` naming `what`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` every `intervalMs` until it holds; false if `timeoutMs` passed first. */
export async function pollUntil(
  condition: () => boolean,
  timeoutMs: number,
  intervalMs = 1,
): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > end) return false;
    await sleep(intervalMs);
  }
  return true;
}

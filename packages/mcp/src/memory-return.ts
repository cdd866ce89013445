// A pruned session's output (up to 64 MiB of Buffer blocks) is only freed by a full garbage
// collection, and an idle server runs none: measured, a server that pruned a 50 MB one-shot
// still held it minutes later. So after a call in which sessions were pruned, the server asks
// V8 for one collection (at most once a second).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Least time between two collections asked for. */
const MIN_GAP_MS = 1_000;

let collect: (() => void) | undefined;

/** V8's full collection, reached through a fresh context once `--expose-gc` is set. */
export function fullCollection(): () => void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  return collect;
}

/**
 * Watches the registry's session ids across calls and runs a full collection after a call
 * in which some disappeared (pruned: over maxEndedSessions or past their TTL).
 */
export function createMemoryReturn(
  listIds: () => readonly string[],
  collect: () => void = () => fullCollection()(),
): { afterCall(): void } {
  let known = new Set(listIds());
  let last = 0;
  let pending: NodeJS.Timeout | undefined;
  return {
    afterCall() {
      const now = new Set(listIds());
      const pruned = [...known].some((id) => !now.has(id));
      known = now;
      if (!pruned || pending) return;
      // Later than the reply (it must not wait for the collection), and not too often.
      pending = setTimeout(
        () => {
          pending = undefined;
          last = Date.now();
          collect();
        },
        Math.max(0, last + MIN_GAP_MS - Date.now()),
      );
      pending.unref();
    },
  };
}

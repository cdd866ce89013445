// The watchdog's whole behaviour, with its input and effects injected so it runs in a test:
// read the link line by line; when it closes, kill what is still watched, unless the host
// said bye.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { killAtHostDeath, type WatchdogKillEffects } from './host-death-kill.js';
import { decodeMessage, WatchedSet } from './protocol.js';

export interface WatchdogLoopOptions {
  /** The link: the watchdog's stdin. */
  input: Readable;
  platform: NodeJS.Platform;
  graceMs: number;
  /** The platform's tree kill, loaded only when there is something to kill. */
  loadEffects(): Promise<WatchdogKillEffects>;
}

/** Resolves once the link closed and every watched tree was killed; to the pids that survived. */
export function runWatchdogLoop(options: WatchdogLoopOptions): Promise<number[]> {
  const watched = new WatchedSet();
  return new Promise((resolve) => {
    let ended = false;
    const onClosed = async () => {
      if (ended) return;
      ended = true;
      const trees = watched.trees();
      if (trees.length === 0) return resolve([]);
      const effects = await options.loadEffects();
      resolve(await killAtHostDeath(trees, options.platform, options.graceMs, effects));
    };
    const lines = createInterface({ input: options.input, crlfDelay: Number.POSITIVE_INFINITY });
    lines.on('line', (line) => {
      const message = decodeMessage(line.trim());
      if (message !== undefined) watched.apply(message);
    });
    lines.on('close', () => void onClosed());
    // readline re-emits its input's error: unheard, it would end the watchdog without a kill.
    lines.on('error', () => void onClosed());
  });
}

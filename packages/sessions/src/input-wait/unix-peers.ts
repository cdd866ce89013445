// /proc names a Unix socket by its inode and not the socket it is connected to; the kernel's
// socket diagnostics do, and `ss -x` (iproute2) asks them with no native code. A socket pair
// stays connected to the same peer for its life, so what `ss` said is kept, and `ss` runs again
// only for a socket not seen before (asyncio's wake-up pair, once per session).
import { execFile } from 'node:child_process';

/** Sockets remembered at most; past this the memory starts again (a host with many sockets). */
const MAX_KNOWN = 20_000;
/**
 * `ss` runs at most this often: a server that also reads its terminal makes new sockets all the
 * time, and a check repeats every 50 ms while someone waits.
 */
export const MIN_LIST_INTERVAL_MS = 1_000;

/** `ss -xHn` lines as local inode → peer inode (0 where none; lines not understood left out). */
export function parseUnixPeers(text: string): Map<number, number> {
  const peers = new Map<number, number>();
  // A line ends `<local address> <local inode> <peer address> <peer inode>`; an address may be
  // a path, so the line is read from its end.
  for (const line of text.split('\n')) {
    const found = /\s(\d+)\s+\S+\s+(\d+)\s*$/.exec(line);
    if (found) peers.set(Number(found[1]), Number(found[2]));
  }
  return peers;
}

/** The socket diagnostics' listing; undefined when `ss` cannot be run. */
export type ListUnixSockets = () => Promise<string | undefined>;

const runSs: ListUnixSockets = () =>
  new Promise((resolve) => {
    execFile('ss', ['-xHn'], { timeout: 2_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      resolve(error ? undefined : stdout);
    });
  });

/**
 * A `unixPeer` effect: the peer's inode, asked of `list` for a socket not known yet, at most
 * once per MIN_LIST_INTERVAL_MS (sooner, the answer is unknown for now). A socket a listing
 * taken after the question does not name is remembered as having none (a TCP socket).
 */
export function unixPeerLookup(
  list: ListUnixSockets = runSs,
  now: () => number = Date.now,
): (inode: number) => Promise<number | undefined> {
  let known = new Map<number, number>();
  let listing: Promise<void> | undefined;
  let listedAt = Number.NEGATIVE_INFINITY;
  const refresh = async () => {
    const text = await list();
    if (text === undefined) return;
    if (known.size > MAX_KNOWN) known = new Map();
    for (const [inode, peer] of parseUnixPeers(text)) known.set(inode, peer);
  };
  return async (inode) => {
    if (!known.has(inode)) {
      const asked = now();
      if (listing === undefined) {
        if (asked - listedAt < MIN_LIST_INTERVAL_MS) return undefined;
        listedAt = asked;
        listing = refresh().finally(() => {
          listing = undefined;
        });
      }
      const started = listedAt;
      await listing;
      if (!known.has(inode) && started >= asked) known.set(inode, 0);
    }
    const peer = known.get(inode);
    return peer === undefined || peer === 0 ? undefined : peer;
  };
}

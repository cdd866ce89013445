// A socket pair's peer, read from `ss -xHn` (the kernel's socket diagnostics): the listing's
// shape, and that `ss` runs once per socket not seen before.
import { describe, expect, it } from 'vitest';
import { MIN_LIST_INTERVAL_MS, parseUnixPeers, unixPeerLookup } from '../../src/input-wait/unix-peers.js';

// What `ss -xHn` printed on Debian 12 (iproute2 6.1) beside a running IPython.
const LISTING = [
  'u_str ESTAB 0      0      * 9197604 * 9197603',
  'u_str ESTAB 0      0      * 9197603 * 9197604',
  'u_str LISTEN 0      4096   /run/dbus/system_bus_socket 15263 * 0',
  'u_str ESTAB 0      0      /run/my app/ctl.sock 2001 * 2002',
  'u_dgr UNCONN 0      0      @/org/kernel/udev 300 * 0',
  'not a line of ss',
].join('\n');

describe('parseUnixPeers', () => {
  it('reads each line from its end: a path may hold blanks; a listener has no peer', () => {
    expect([...parseUnixPeers(LISTING)]).toEqual([
      [9197604, 9197603],
      [9197603, 9197604],
      [15263, 0],
      [2001, 2002],
      [300, 0],
    ]);
  });
});

describe('unixPeerLookup', () => {
  /** A lookup over `listing` (null: ss cannot run) on a clock the test moves; `runs` counts the listings. */
  function lookupAt(listing: string | null = LISTING) {
    const world = { runs: 0, clock: 0 };
    const lookup = unixPeerLookup(
      async () => {
        world.runs++;
        return listing ?? undefined;
      },
      () => world.clock,
    );
    return { world, lookup };
  }

  it('asks once for sockets it knows, again only for one not seen, and remembers one not listed', async () => {
    const { world, lookup } = lookupAt();
    expect(await lookup(9197603)).toBe(9197604);
    expect(await lookup(9197604)).toBe(9197603);
    expect(world.runs).toBe(1);
    expect(await lookup(15263)).toBeUndefined();
    expect(world.runs).toBe(1);
    // A TCP socket's inode: not in the listing, asked once, then known to have no Unix peer.
    world.clock += MIN_LIST_INTERVAL_MS;
    expect(await lookup(424242)).toBeUndefined();
    expect(await lookup(424242)).toBeUndefined();
    world.clock += MIN_LIST_INTERVAL_MS;
    expect(await lookup(424242)).toBeUndefined();
    expect(world.runs).toBe(2);
  });

  it('lists at most once per MIN_LIST_INTERVAL_MS: a socket not known sooner is unknown for now', async () => {
    const { world, lookup } = lookupAt();
    expect(await lookup(1)).toBeUndefined();
    world.clock += MIN_LIST_INTERVAL_MS - 1;
    // Not listed again yet, and not taken for a socket with no peer: asked again later.
    expect(await lookup(2001)).toBe(2002);
    expect(await lookup(2)).toBeUndefined();
    expect(world.runs).toBe(1);
    world.clock += 1;
    expect(await lookup(2)).toBeUndefined();
    expect(world.runs).toBe(2);
  });

  it('concurrent lookups share one run; without ss every peer is unknown', async () => {
    const { world, lookup } = lookupAt();
    expect(await Promise.all([lookup(9197603), lookup(2001), lookup(2002)])).toEqual([
      9197604,
      2002,
      undefined,
    ]);
    expect(world.runs).toBe(1);
    const without = lookupAt(null);
    expect(await without.lookup(9197603)).toBeUndefined();
  });
});

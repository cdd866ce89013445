// Where wait_for looks for a session's port: this host's loopback, a Linux sandbox's own
// network (read from the kernel's socket table of a process inside it), or nowhere when the
// sessions run on another host (refused, saying why).
import { describe, expect, it } from 'vitest';
import { resolveToolOptions } from '../src/options.js';
import { listensOn, type ProcEffects, portProbe } from '../src/port-probe.js';
import { closingHarness, idOf } from './helpers.js';

const harness = closingHarness();

// Two sockets from a real /proc/net/tcp: 127.0.0.1:8126 listening (st 0A), and a connection
// from 127.0.0.1:41766 to it (st 01).
const TCP = [
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
  '   0: 0100007F:1FBE 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 337 1 0 100 0 0 10 0',
  '   1: 0100007F:A326 0100007F:1FBE 01 00000000:00000000 00:00000000 00000000     0        0 338 1 0 20 4 30 10 -1',
].join('\n');
const TCP6 = [
  '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
  '   0: 00000000000000000000000000000000:0BB8 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0',
].join('\n');

describe('listensOn', () => {
  it('finds a listening socket by port, on IPv4 and IPv6, and not a connection using it', () => {
    expect(listensOn(TCP, 8126)).toBe(true);
    expect(listensOn(TCP6, 3000)).toBe(true);
    expect(listensOn(TCP, 41766)).toBe(false);
    expect(listensOn(TCP, 3000)).toBe(false);
    expect(listensOn('', 8126)).toBe(false);
  });
});

/** A process tree: bwrap (100, our network) → its child (101, the sandbox's) → the server (102). */
function tree(tables: Record<string, string>): ProcEffects {
  const net: Record<string, string> = {
    self: 'net:[1]',
    '100': 'net:[1]',
    '101': 'net:[2]',
    '102': 'net:[2]',
  };
  const children: Record<string, string> = { '100': '101 ', '101': '102 ', '102': '' };
  return {
    readlink: async (path) => {
      const pid = /^\/proc\/(\w+)\/ns\/net$/.exec(path)?.[1];
      const link = pid === undefined ? undefined : net[pid];
      if (link === undefined) throw new Error(`ENOENT ${path}`);
      return link;
    },
    readFile: async (path) => {
      const child = /^\/proc\/(\d+)\/task\/\d+\/children$/.exec(path)?.[1];
      if (child !== undefined) return children[child] ?? '';
      const table = tables[path];
      if (table === undefined) throw new Error(`ENOENT ${path}`);
      return table;
    },
  };
}

const sandboxed = (pid: number | undefined) => ({ metadata: () => ({ pid, sandbox: {} }) });

describe('portProbe', () => {
  it("reads a sandboxed session's ports from the first process of its tree in another network", async () => {
    const probe = portProbe(
      sandboxed(100),
      'linux',
      tree({ '/proc/101/net/tcp': TCP, '/proc/101/net/tcp6': TCP6 }),
    );
    expect(probe.where).toBe('sandbox');
    expect(await probe.open(8126)).toBe(true);
    expect(await probe.open(3000)).toBe(true);
    expect(await probe.open(41766)).toBe(false);
  });

  it('says closed when no process of the tree is in another network, or the session has no pid', async () => {
    const flat: ProcEffects = { ...tree({}), readlink: async () => 'net:[1]' };
    expect(await portProbe(sandboxed(100), 'linux', flat).open(8126)).toBe(false);
    expect(await portProbe(sandboxed(undefined), 'linux', tree({})).open(8126)).toBe(false);
  });

  it("looks at this host's loopback for a session without a sandbox, and off Linux", () => {
    expect(portProbe({ metadata: () => ({ pid: 100 }) }, 'linux', tree({})).where).toBe('loopback');
    expect(portProbe(sandboxed(100), 'darwin', tree({})).where).toBe('loopback');
  });
});

describe('wait_for port where the sessions run on another host', () => {
  it('is refused, saying why and what to wait for instead', async () => {
    const h = harness({
      portsUnavailable: 'the sessions run on build-1 over SSH, and this host cannot see its ports',
    });
    const id = idOf(await h.exec({ command: 'sleep 30', mode: 'daemon' }));
    const r = await h.tools.process.run({ action: 'wait_for', session_id: id, port: 8080 });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'Error [ERR_PROCESS_UNSUPPORTED]: wait_for port is not available here: the sessions run on build-1 over SSH, and this host cannot see its ports. Wait for the line the server prints when it is ready (pattern) instead',
    );
  });

  it('takes only a string as the reason', () => {
    expect(() => resolveToolOptions({ portsUnavailable: 42 as unknown as string })).toThrow(
      'portsUnavailable must be a string saying why',
    );
  });
});

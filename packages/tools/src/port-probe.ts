import { readFile, readlink } from 'node:fs/promises';
import { connect } from 'node:net';

/** How long one connection attempt may take on loopback. */
const CONNECT_TIMEOUT_MS = 500;
/** Processes looked at while searching a session's tree for its sandbox's network. */
const MAX_TREE_WALK = 64;
/** `st` of a listening socket in /proc/net/tcp and tcp6. */
const TCP_LISTEN = '0A';

/**
 * Where `wait_for port` looks for a session's server: this host's loopback, or a sandboxed
 * session's own network namespace (bubblewrap's `--unshare-net`), which the host's loopback
 * does not reach.
 */
export interface PortProbe {
  readonly where: 'loopback' | 'sandbox';
  open(port: number): Promise<boolean>;
}

/** What the sandbox probe reads; injected in tests. */
export interface ProcEffects {
  readFile(path: string): Promise<string>;
  readlink(path: string): Promise<string>;
}

const PROC: ProcEffects = {
  readFile: (path) => readFile(path, 'utf8'),
  readlink: (path) => readlink(path),
};

/**
 * The probe for a session: a Linux sandbox's namespace is read from the kernel's socket table
 * of a process inside it (a connection from here would reach this host's port of that number,
 * open or not: a false answer either way); every other session's is this host's loopback.
 */
export function portProbe(
  session: { metadata(): { pid: number | undefined; sandbox?: unknown } },
  platform: NodeJS.Platform = process.platform,
  effects: ProcEffects = PROC,
): PortProbe {
  if (platform !== 'linux' || session.metadata().sandbox === undefined) {
    return { where: 'loopback', open: loopbackPortOpen };
  }
  return {
    where: 'sandbox',
    open: async (port) => {
      const pid = session.metadata().pid;
      const inside = pid === undefined ? undefined : await processInOtherNetwork(pid, effects);
      if (inside === undefined) return false;
      for (const table of ['tcp', 'tcp6']) {
        const text = await effects.readFile(`/proc/${inside}/net/${table}`).catch(() => '');
        if (listensOn(text, port)) return true;
      }
      return false;
    },
  };
}

/** The first process of `pid`'s tree (itself included) whose network namespace is not ours. */
async function processInOtherNetwork(pid: number, effects: ProcEffects): Promise<number | undefined> {
  const ours = await effects.readlink('/proc/self/ns/net').catch(() => undefined);
  if (ours === undefined) return undefined;
  const queue = [pid];
  for (let seen = 0; seen < MAX_TREE_WALK && queue.length > 0; seen++) {
    const next = queue.shift()!;
    const net = await effects.readlink(`/proc/${next}/ns/net`).catch(() => undefined);
    if (net !== undefined && net !== ours) return next;
    const children = await effects.readFile(`/proc/${next}/task/${next}/children`).catch(() => '');
    for (const child of children.split(' ')) if (/^\d+$/.test(child)) queue.push(Number(child));
  }
  return undefined;
}

/** Whether a /proc/net/tcp or tcp6 table holds a socket listening on `port` (any address). */
export function listensOn(table: string, port: number): boolean {
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields[3] !== TCP_LISTEN) continue;
    const local = fields[1] ?? '';
    if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port) return true;
  }
  return false;
}

/**
 * Whether something accepts TCP connections on this loopback port (IPv4 127.0.0.1, then IPv6
 * ::1). Connects and closes at once: the server sees a connection with no request.
 */
export async function loopbackPortOpen(port: number): Promise<boolean> {
  for (const host of ['127.0.0.1', '::1']) {
    if (await tryConnect(host, port)) return true;
  }
  return false;
}

function tryConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (open: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(open);
    };
    const timer = setTimeout(() => done(false), CONNECT_TIMEOUT_MS);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

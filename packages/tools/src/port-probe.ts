import { connect } from 'node:net';

/** How long one connection attempt may take on loopback. */
const CONNECT_TIMEOUT_MS = 500;

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

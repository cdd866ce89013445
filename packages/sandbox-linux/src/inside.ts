// A sandbox's own loopback, reached through its forwarder. The host cannot connect into the
// sandbox's network namespace, so for a loopback destination the proxy asks the forwarder that
// carried the request to connect there (native/sandbox-init.c, open_inside); the forwarder
// hands the connection back as a stream of its own, or says nothing listens there.
import { randomBytes } from 'node:crypto';
import { isIPv4, type Socket } from 'node:net';

/** The line sandbox-init starts each relayed connection with (kept in step with it). */
export const RELAY_HELLO = 'PROCMUX-RELAY 1\r\n';
/**
 * The proxy's first line back on such a connection when it asks for nothing inside: one line
 * always comes first, so no server's bytes are ever read as an instruction.
 */
export const OUTSIDE_LINE = '\0PROCMUX-OUTSIDE\n';

const STREAM = /^PROCMUX-STREAM ([0-9a-f]{32}) (ok|refused)$/;
// A forwarder answers at once (a loopback connect); past this, the destination is treated as
// having nothing inside, not waited on for ever.
const ANSWER_MS = 10_000;

/** The stream to a server inside, with what it sent before the proxy read its head. */
export interface InsideStream {
  socket: Socket;
  early: Buffer;
}

/**
 * The address sandbox-init connects to for a destination on loopback (`localhost` and its
 * subdomains, 127.0.0.0/8, ::1, and the unspecified 0.0.0.0 and ::, which connect to loopback
 * on Linux), or undefined for any other host.
 */
export function insideAddress(host: string): string | undefined {
  const name = host.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return 'localhost';
  if (name === '[::1]' || name === '[::]') return name.slice(1, -1);
  if (isIPv4(name) && (name.startsWith('127.') || name === '0.0.0.0')) return name;
  return undefined;
}

/** The streams forwarders hand back, each to the request that asked for it. */
export class InsideStreams {
  readonly #waiting = new Map<string, (stream: InsideStream | undefined) => void>();

  /**
   * Asks the forwarder behind `client` to connect to `address`:`port` inside its sandbox.
   * Undefined when nothing listens there, no answer came, or the client went away.
   */
  open(client: Socket, address: string, port: number): Promise<InsideStream | undefined> {
    const id = randomBytes(16).toString('hex');
    return new Promise((resolve) => {
      const done = (stream: InsideStream | undefined) => {
        clearTimeout(timer);
        client.off('close', gone);
        this.#waiting.delete(id);
        resolve(stream);
      };
      const gone = () => done(undefined);
      const timer = setTimeout(gone, ANSWER_MS);
      client.once('close', gone);
      this.#waiting.set(id, done);
      client.write(`\0PROCMUX-INSIDE ${id} ${address} ${port}\n`);
    });
  }

  /** True when `head` is a forwarder's stream (taken, or destroyed when no request waits). */
  take(head: string, socket: Socket, early: Buffer): boolean {
    const match = STREAM.exec(head);
    if (!match) return false;
    const done = this.#waiting.get(match[1]!);
    if (done && match[2] === 'ok') {
      done({ socket, early });
      return true;
    }
    socket.destroy();
    done?.(undefined);
    return true;
  }
}

import { execFile } from 'node:child_process';
import { open, readdir, readFile, readlink } from 'node:fs/promises';
import type { ProcEffects } from './proc-effects.js';
import { sttyEcho } from './procfs.js';
import { unixPeerLookup } from './unix-peers.js';

const quiet = <T>(p: Promise<T>): Promise<T | undefined> => p.catch(() => undefined);

/**
 * The real effects on Linux. The echo flag comes from `stty -F <pts> -a` (coreutils): it needs
 * no native code, and it runs only once a wait was found, not on every check. A socket's peer
 * comes from `ss` (unix-peers.ts).
 */
export const linuxProcEffects: ProcEffects = {
  readFile: (path) => quiet(readFile(path, 'utf8')),
  readlink: (path) => quiet(readlink(path)),
  listDir: (path) => quiet(readdir(path)),
  unixPeer: unixPeerLookup(),
  async readMemory(pid, address, length) {
    const handle = await quiet(open(`/proc/${pid}/mem`, 'r'));
    if (!handle) return undefined;
    try {
      const buffer = new Uint8Array(length);
      const { bytesRead } = await handle.read(buffer, 0, length, Number(address));
      return bytesRead === length ? buffer : undefined;
    } catch {
      return undefined;
    } finally {
      await handle.close().catch(() => {});
    }
  },
  terminalEcho: (path) =>
    new Promise((resolve) => {
      execFile('stty', ['-F', path, '-a'], { timeout: 2_000 }, (error, stdout) => {
        resolve(error ? undefined : sttyEcho(stdout));
      });
    }),
};

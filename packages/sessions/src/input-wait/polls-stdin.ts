import { kernelWaiting } from './kernel-detect.js';
import { linuxProcEffects } from './node-effects.js';

/**
 * Whether the process tree of `pid` (on pipes) polls its stdin among other descriptors (an
 * event loop such as Node's epoll), which the waiting check cannot read as waiting: true or
 * false where the kernel tells (Linux), null where it cannot be asked or the tree is gone.
 */
export async function pollsStdin(
  pid: number,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean | null> {
  if (platform !== 'linux') return null;
  const verdict = await kernelWaiting({ rootPid: pid, kind: 'pipe', arch: process.arch }, linuxProcEffects);
  if (verdict === null) return null;
  return !verdict.waiting && verdict.pollsInput === true;
}

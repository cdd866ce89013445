import { readFileSync } from 'node:fs';
import { foregroundGroup, type HangUpEffects, systemHangUpEffects } from './hang-up.js';

/**
 * The name of the job in the foreground of the terminal `pid` leads (its process group
 * leader's `comm`), for the marker of a rendered full-screen program. Linux only (/proc, no
 * subprocess: it is asked on the output path); undefined elsewhere or when unknown.
 */
export function foregroundProgram(
  pid: number | undefined,
  effects: HangUpEffects = systemHangUpEffects,
  readComm: (pid: number) => string | undefined = readProcComm,
): string | undefined {
  if (pid === undefined || effects.platform !== 'linux') return undefined;
  const group = foregroundGroup(pid, effects);
  if (group === undefined) return undefined;
  const name = readComm(group)?.trim();
  // comm is at most 15 bytes; anything odd in it must not break the marker line.
  return name ? name.replace(/[\x00-\x1f\]]/g, '?') : undefined;
}

function readProcComm(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8');
  } catch {
    return undefined;
  }
}

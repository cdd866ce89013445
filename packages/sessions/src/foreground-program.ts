import { readFileSync } from 'node:fs';
import type { Foreground } from './full-screen-episode.js';
import { foregroundGroup, type HangUpEffects, systemHangUpEffects } from './hang-up.js';

/**
 * The job in the foreground of the terminal `pid` leads: its process group and the group
 * leader's `comm`, for a rendered episode's marker and to tell when a repaint episode's
 * program gave the terminal back. Linux only (/proc, no subprocess: it is asked on the
 * output path); undefined elsewhere or when unknown.
 */
export function foregroundProgram(
  pid: number | undefined,
  effects: HangUpEffects = systemHangUpEffects,
  readComm: (pid: number) => string | undefined = readProcComm,
): Foreground | undefined {
  if (pid === undefined || effects.platform !== 'linux') return undefined;
  const group = foregroundGroup(pid, effects);
  if (group === undefined) return undefined;
  const name = readComm(group)?.trim();
  // comm is at most 15 bytes; anything odd in it must not break the marker line.
  return { group, name: name ? name.replace(/[\x00-\x1f\]]/g, '?') : '' };
}

function readProcComm(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8');
  } catch {
    return undefined;
  }
}

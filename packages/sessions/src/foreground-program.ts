import { readFileSync } from 'node:fs';
import type { Foreground } from './full-screen-episode.js';
import { foregroundGroup, type HangUpEffects, systemHangUpEffects } from './hang-up.js';

/** How far down the foreground group's tree the name is looked for. */
const MAX_DEPTH = 8;

/** Reads /proc files; injected in tests. Undefined when a file cannot be read. */
export type ProcRead = (path: string) => string | undefined;

/**
 * The job in the foreground of the terminal `pid` leads: its process group, and the name of
 * the program it runs — the newest descendant of the group leader still in the group, so
 * `sh -c 'vim f'` (one group, sh its leader) is named vim. For a rendered episode's marker,
 * and to tell when a repaint episode's program gave the terminal back. Linux only (/proc, no
 * subprocess: it is asked on the output path); undefined elsewhere or when unknown.
 */
export function foregroundProgram(
  pid: number | undefined,
  named = true,
  effects: HangUpEffects = systemHangUpEffects,
  read: ProcRead = readProc,
): Foreground | undefined {
  if (pid === undefined || effects.platform !== 'linux') return undefined;
  const group = foregroundGroup(pid, effects);
  if (group === undefined) return undefined;
  // Only the group: one /proc read, cheap enough for every chunk of a repaint episode.
  if (!named) return { group, name: '' };
  let program = group;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const children = read(`/proc/${program}/task/${program}/children`)?.trim().split(/\s+/).map(Number) ?? [];
    const next = children
      .reverse()
      .find((child) => Number.isInteger(child) && groupOf(child, read) === group);
    if (next === undefined) break;
    program = next;
  }
  const name = read(`/proc/${program}/comm`)?.trim();
  // comm is at most 15 bytes; anything odd in it must not break the marker line.
  return { group, name: name ? name.replace(/[\x00-\x1f\]]/g, '?') : '' };
}

function groupOf(pid: number, read: ProcRead): number | undefined {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // pid (comm) state ppid pgrp: counted after the name's closing parenthesis.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

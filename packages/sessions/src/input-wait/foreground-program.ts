import { readFileSync } from 'node:fs';
import type { Foreground } from '@procmux/transcript';
import { parseStat } from './procfs.js';

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
  platform: NodeJS.Platform = process.platform,
  read: ProcRead = readProc,
): Foreground | undefined {
  if (pid === undefined || platform !== 'linux') return undefined;
  // tpgid of the terminal's leader; -1 (or 0) when it has no controlling terminal.
  const group = statOf(pid, read)?.tpgid;
  if (group === undefined || !Number.isInteger(group) || group <= 0) return undefined;
  // Only the group: one /proc read, cheap enough for every chunk of a repaint episode.
  if (!named) return { group, name: '' };
  const name = read(`/proc/${newestInGroup(group, read)}/comm`)?.trim();
  // comm is at most 15 bytes; anything odd in it must not break the marker line.
  return { group, name: name ? name.replace(/[\x00-\x1f\]]/g, '?') : '' };
}

/**
 * The command line (argv, as /proc/<pid>/cmdline holds it) of the program foregroundProgram
 * names: a shell's `node` typed at its prompt reads `['node']`. Undefined off Linux, without a
 * terminal, or when unreadable (a process gone, a kernel thread's empty cmdline).
 */
export function foregroundCommandLine(
  pid: number | undefined,
  platform: NodeJS.Platform = process.platform,
  read: ProcRead = readProc,
): string[] | undefined {
  const group = foregroundProgram(pid, false, platform, read)?.group;
  if (group === undefined) return undefined;
  const line = read(`/proc/${newestInGroup(group, read)}/cmdline`);
  if (line === undefined || line === '') return undefined;
  return (line.endsWith('\0') ? line.slice(0, -1) : line).split('\0');
}

/** The newest descendant of the group's leader still in the group (the leader when none). */
function newestInGroup(group: number, read: ProcRead): number {
  let program = group;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const children = read(`/proc/${program}/task/${program}/children`)?.trim().split(/\s+/).map(Number) ?? [];
    const next = children
      .reverse()
      .find((child) => Number.isInteger(child) && groupOf(child, read) === group);
    if (next === undefined) break;
    program = next;
  }
  return program;
}

function groupOf(pid: number, read: ProcRead): number | undefined {
  return statOf(pid, read)?.pgrp;
}

function statOf(pid: number, read: ProcRead) {
  const stat = read(`/proc/${pid}/stat`);
  return stat === undefined ? undefined : parseStat(stat);
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

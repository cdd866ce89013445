// The Windows process table with parents and creation times, from one CIM query. Windows
// does not reparent orphans and reuses pids, so a parent pid alone proves nothing: the
// creation times tell which process a parent pid meant (see sweep.ts).
import { win32 } from 'node:path';
import { systemRoot } from './taskkill.js';

/** One process: its pid, its parent's pid (possibly long dead) and when it was created. */
export interface WindowsProcess {
  readonly pid: number;
  readonly ppid: number;
  /** Creation time in ms since 1601 (FILETIME / 10,000); 0 where Windows gives none. */
  readonly created: number;
}

/**
 * One line per process, `<pid> <ppid> <FILETIME>`: culture-independent integers, so nothing
 * localized is parsed. The script is a constant; no caller input reaches PowerShell.
 */
export const PROCESS_TABLE_SCRIPT =
  'Get-CimInstance -ClassName Win32_Process | ForEach-Object { ' +
  '$c = $_.CreationDate; $t = if ($c) { $c.ToFileTimeUtc() } else { 0 }; ' +
  '"$($_.ProcessId) $($_.ParentProcessId) $t" }';

/** PowerShell 5.1, which every supported Windows has, from under SystemRoot (not PATH). */
export function powershellPath(env: Readonly<Record<string, string | undefined>>): string {
  return win32.join(systemRoot(env), 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');
}

export const POWERSHELL_ARGS: readonly string[] = [
  '-NoProfile',
  '-NonInteractive',
  '-NoLogo',
  '-Command',
  PROCESS_TABLE_SCRIPT,
];

/** Parses the script's output; lines that are not three integers are skipped. */
export function parseProcessTable(output: string): WindowsProcess[] {
  const table: WindowsProcess[] = [];
  for (const line of output.split(/\r?\n/)) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\d+)\s*$/.exec(line);
    if (match === null) continue;
    // FILETIME (100 ns ticks since 1601) exceeds 2^53; BigInt keeps it exact before the cut to ms.
    table.push({
      pid: Number(match[1]),
      ppid: Number(match[2]),
      created: Number(BigInt(match[3]!) / 10_000n),
    });
  }
  return table;
}

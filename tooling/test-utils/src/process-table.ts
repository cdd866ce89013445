// A snapshot of the process table, for tests that must prove nothing they started survives.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** Single-letter state ('Z' for a zombie, which is dead already). */
  state: string;
  command: string;
  /** Value of PROCMUX_TREE in the environment, when readable. */
  marker: string | undefined;
}

function readLinux(): ProcessInfo[] {
  const table: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // comm may contain spaces and parentheses: fields start after the last ')'.
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      let marker: string | undefined;
      try {
        const environ = readFileSync(`/proc/${name}/environ`, 'utf8');
        const entry = environ.split('\0').find((e) => e.startsWith('PROCMUX_TREE='));
        marker = entry?.slice('PROCMUX_TREE='.length);
      } catch {
        marker = undefined;
      }
      let command = '';
      try {
        command = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      } catch {}
      table.push({
        pid: Number(name),
        state: fields[0] ?? '?',
        ppid: Number(fields[1]),
        pgid: Number(fields[2]),
        command: command || stat.slice(stat.indexOf('(') + 1, close),
        marker,
      });
    } catch {
      // The process exited while we read it.
    }
  }
  return table;
}

// macOS prints each process's environment after its command with -E (the BSDs with -e), so
// markers, and with them setsid escapees whose parent exited, are visible there too.
const PS_ENV_FLAG: Partial<Record<NodeJS.Platform, string>> = { darwin: '-E', freebsd: '-e', openbsd: '-e' };

function runPs(): string {
  const columns = ['-o', 'pid=,ppid=,pgid=,state=,command='];
  const flag = PS_ENV_FLAG[process.platform];
  if (flag !== undefined) {
    try {
      return execFileSync('ps', ['-A', '-ww', flag, ...columns], {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
    } catch {
      // This ps does not print environments: no markers, parents and groups still work.
    }
  }
  return execFileSync('ps', ['-A', ...columns], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function readPs(): ProcessInfo[] {
  return runPs()
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const [pid, ppid, pgid, state, ...command] = line.trim().split(/\s+/);
      // The environment follows the arguments, so the last marker-looking token is the real one.
      const markers = [...line.matchAll(/(?:^|\s)PROCMUX_TREE=(\S+)/g)];
      return {
        pid: Number(pid),
        ppid: Number(ppid),
        pgid: Number(pgid),
        state: (state ?? '?').slice(0, 1),
        command: command.join(' '),
        marker: markers.at(-1)?.[1],
      };
    });
}

// Windows has no ps: one CIM query gives pid and parent pid (no groups, no markers there).
function readWindows(): ProcessInfo[] {
  const out = execFileSync(
    'powershell.exe',
    [
      '-NoProfile',
      '-NonInteractive',
      '-Command',
      'Get-CimInstance Win32_Process | ForEach-Object { "$($_.ProcessId) $($_.ParentProcessId) $($_.Name)" }',
    ],
    { encoding: 'utf8', windowsHide: true },
  );
  return out
    .split(/\r?\n/)
    .filter((line) => line.trim())
    .map((line) => {
      const [pid, ppid, ...name] = line.trim().split(/\s+/);
      return {
        pid: Number(pid),
        ppid: Number(ppid),
        pgid: 0,
        state: 'R',
        command: name.join(' '),
        marker: undefined,
      };
    });
}

export function processTable(): ProcessInfo[] {
  if (process.platform === 'linux') return readLinux();
  if (process.platform === 'win32') return readWindows();
  return readPs();
}

/** Every live (non-zombie) process descending from `root`, not including it. */
export function descendantsOf(root: number, table = processTable()): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const info of table) {
    const list = children.get(info.ppid) ?? [];
    list.push(info);
    children.set(info.ppid, list);
  }
  const found: ProcessInfo[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    for (const child of children.get(pid) ?? []) {
      if (child.state !== 'Z') found.push(child);
      stack.push(child.pid);
    }
  }
  return found;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  }
  return true;
}

// A simulated Windows for the sweep tests: processes with parents and creation times,
// taskkill that walks the tree by parent pid among live processes (as taskkill.exe does),
// a CIM process table, and a clock that moves only when the kill sleeps.
import type { ExecResult, WindowsKillEffects } from '../src/platform.js';
import type { WindowsProcess } from '../src/process-table.js';

export interface SimProcess {
  pid: number;
  ppid: number;
  created: number;
  /** Accepts taskkill without /F (a windowed program); console programs refuse it. */
  closes?: boolean;
  /** taskkill /F answers access denied. */
  protected?: boolean;
  alive?: boolean;
}

export function windowsWorld(processes: SimProcess[], options: { table?: 'works' | 'fails' } = {}) {
  const world = {
    processes: processes.map((p) => ({ alive: true, ...p })),
    calls: [] as string[],
    tableReads: 0,
    clock: 0,
    /** Runs after each taskkill, to script what else happens meanwhile. */
    afterTaskkill: (_force: boolean) => {},
  };
  const live = () => world.processes.filter((p) => p.alive);
  const walk = (pid: number) => {
    const tree = live().filter((p) => p.pid === pid);
    for (let i = 0; i < tree.length; i++) {
      for (const p of live()) if (p.ppid === tree[i]!.pid && !tree.includes(p)) tree.push(p);
    }
    return tree;
  };
  const effects: WindowsKillEffects = {
    selfPid: 1,
    env: {},
    async exec(_file, args): Promise<ExecResult> {
      const pid = Number(args[1]);
      const force = args.includes('/F');
      world.calls.push(`${force ? 'force' : 'soft'} ${pid}`);
      const tree = walk(pid);
      let result: ExecResult;
      if (tree.length === 0) result = { code: 128, stdout: '', stderr: 'not found' };
      else if (!force) {
        for (const p of tree) if (p.closes) p.alive = false;
        result = { code: tree[0]!.closes ? 0 : 1, stdout: '', stderr: '' };
      } else {
        for (const p of tree) if (!p.protected) p.alive = false;
        result = { code: tree[0]!.protected ? 1 : 0, stdout: '', stderr: '' };
      }
      world.afterTaskkill(force);
      return result;
    },
    isAlive: (pid) => live().some((p) => p.pid === pid),
    sleep: async (ms) => {
      world.clock += ms;
    },
    now: () => world.clock,
  };
  if (options.table !== undefined) {
    effects.processTable = async () => {
      world.tableReads += 1;
      if (options.table === 'fails') throw new Error('powershell.exe: not found');
      return live().map(({ pid, ppid, created }): WindowsProcess => ({ pid, ppid, created }));
    };
  }
  return { world, effects };
}

// What holds a pane's process tree: a cgroup of its own beneath this host's cgroup (Linux,
// where one can be made), else a pid namespace of its own, else the marker sweep. And, for a
// pane a later host re-attaches, what it really has.
import { readFileSync } from 'node:fs';
import { ProcmuxError } from '@procmux/core-types';
import {
  adoptRefusal,
  hostCgroupLayout,
  hostPidNamespaceSupport,
  namespacedProgramPid,
  pidNamespaceTarget,
  SessionCgroup,
} from '@procmux/supervisor';
import { isSafePath } from './layout.js';

export type TmuxContainmentMode = 'auto' | 'cgroup' | 'pid-namespace' | 'marker';
export type PaneContainment = 'cgroup' | 'pid-namespace' | 'marker';

export interface HeldPane {
  containment: PaneContainment;
  /** The pane's cgroup: its process joins it first thing (the start script). */
  cgroup?: SessionCgroup;
  /** The program to run (wrapped for a pid namespace). */
  program: { file: string; args: readonly string[] };
}

/**
 * Chooses and makes a pane's containment. 'auto': a cgroup, else a pid namespace, else the
 * marker sweep; 'cgroup' and 'pid-namespace' fail the start naming why they cannot be had.
 */
export async function holdPane(
  mode: TmuxContainmentMode,
  name: string,
  program: { file: string; args: readonly string[] },
  waiterStatus?: string,
): Promise<HeldPane> {
  if (mode === 'marker') return { containment: 'marker', program };
  if (mode === 'cgroup' || mode === 'auto') {
    const made = paneCgroup(name);
    if (typeof made !== 'string') return { containment: 'cgroup', cgroup: made, program };
    if (mode === 'cgroup')
      throw new ProcmuxError('ERR_PROCESS_UNSUPPORTED', `a tmux pane cannot have a cgroup: ${made}`);
  }
  const support = await hostPidNamespaceSupport();
  if (support.ok)
    return {
      containment: 'pid-namespace',
      program: pidNamespaceTarget(
        { file: program.file, args: [...program.args] },
        support.spec,
        waiterStatus,
      ),
    };
  if (mode === 'pid-namespace')
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      `a tmux pane cannot run in a pid namespace: ${support.reason}`,
    );
  return { containment: 'marker', program };
}

// A cgroup for the pane, or why there is none. Its paths go unquoted into the pane-died hook
// (run by sh), so a cgroup path needing quotes is refused rather than quoted.
function paneCgroup(name: string): SessionCgroup | string {
  if (process.platform !== 'linux') return `cgroups are Linux only (this host: ${process.platform})`;
  const layout = hostCgroupLayout();
  if (layout === undefined) return 'the host cgroup could not be read from /proc/self/cgroup';
  let cgroup: SessionCgroup;
  try {
    cgroup = SessionCgroup.create({ layout, id: name });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const unsafe = cgroup.dirs.find((dir) => !isSafePath(dir));
  if (unsafe === undefined) return cgroup;
  void cgroup.close().catch(() => {});
  return `its cgroup path ${JSON.stringify(unsafe)} holds characters the pane-died hook cannot take unquoted`;
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * What a re-attached pane really has: the cgroup its record names when that is the cgroup
 * procmux made for this session (adoptRefusal) and the pane's process is in it, wherever this
 * host runs; else a pid namespace when its process waits on one; else the marker sweep.
 * `pid` is undefined for a pane that already ended: its cgroup is adopted to be removed.
 */
export function adoptPane(
  session: string,
  dirs: readonly string[] | undefined,
  pid: number | undefined,
): { containment: PaneContainment; cgroup?: SessionCgroup } {
  if (dirs !== undefined && process.platform === 'linux') {
    const refusal = adoptRefusal({
      dirs,
      id: session,
      mountinfo: readProc('/proc/self/mountinfo') ?? '',
      layout: hostCgroupLayout(),
    });
    const member =
      pid === undefined || (readProc(`${dirs[0]}/cgroup.procs`) ?? '').split('\n').includes(String(pid));
    if (refusal === undefined && member) return { containment: 'cgroup', cgroup: SessionCgroup.adopt(dirs) };
  }
  if (pid !== undefined && namespacedProgramPid(pid, readProc) !== undefined)
    return { containment: 'pid-namespace' };
  return { containment: 'marker' };
}

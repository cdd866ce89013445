// What holds a pane's process tree: a cgroup of its own beneath this host's cgroup (Linux,
// where one can be made), else a pid namespace of its own, else the marker sweep. And, for a
// pane a later host re-attaches, what it really has. The same choice and the same check serve a
// pane on another machine (remote/remote-containment.ts), through effects.
import { readFileSync } from 'node:fs';
import { ProcmuxError } from '@procmux/core-types';
import {
  adoptRefusal,
  hostCgroupLayout,
  hostPidNamespaceSupport,
  namespacedProgramPid,
  type PidNamespaceSupport,
  pidNamespaceTarget,
  SessionCgroup,
} from '@procmux/supervisor';
import { isSafePath } from './layout.js';

export type TmuxContainmentMode = 'auto' | 'cgroup' | 'pid-namespace' | 'marker';
export type PaneContainment = 'cgroup' | 'pid-namespace' | 'marker';
/** Reads a file's text on the machine the pane runs on; undefined when it cannot be read. */
export type ProcRead = (path: string) => string | undefined;

export interface HeldPane<C = SessionCgroup> {
  containment: PaneContainment;
  /** The pane's cgroup: its process joins it first thing (the start script). */
  cgroup?: C;
  /** The program to run (wrapped for a pid namespace). */
  program: { file: string; args: readonly string[] };
}

/** Where a pane's containment is made: this host, or the machine of a remote tmux server. */
export interface PaneHolder<C> {
  /** Appended to the refusals: `` or ` on user@host:port`. */
  where: string;
  /** Makes the pane's cgroup, or says why there can be none. */
  cgroup(name: string): Promise<C | string>;
  pidNamespace(): Promise<PidNamespaceSupport>;
}

const localHolder: PaneHolder<SessionCgroup> = {
  where: '',
  cgroup: async (name) => paneCgroup(name),
  pidNamespace: hostPidNamespaceSupport,
};

/**
 * Chooses and makes a pane's containment. 'auto': a cgroup, else a pid namespace, else the
 * marker sweep; 'cgroup' and 'pid-namespace' fail the start naming why they cannot be had.
 */
export async function holdPane<C = SessionCgroup>(
  mode: TmuxContainmentMode,
  name: string,
  program: { file: string; args: readonly string[] },
  waiterStatus?: string,
  holder: PaneHolder<C> = localHolder as unknown as PaneHolder<C>,
): Promise<HeldPane<C>> {
  if (mode === 'marker') return { containment: 'marker', program };
  if (mode === 'cgroup' || mode === 'auto') {
    const made = await holder.cgroup(name);
    if (typeof made !== 'string') return { containment: 'cgroup', cgroup: made, program };
    if (mode === 'cgroup')
      throw new ProcmuxError(
        'ERR_PROCESS_UNSUPPORTED',
        `a tmux pane${holder.where} cannot have a cgroup: ${made}`,
      );
  }
  const support = await holder.pidNamespace();
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
      `a tmux pane${holder.where} cannot run in a pid namespace: ${support.reason}`,
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
  const containment = adoptedContainment(session, dirs, pid, readProc, process.platform);
  return containment === 'cgroup' && dirs !== undefined
    ? { containment, cgroup: SessionCgroup.adopt(dirs) }
    : { containment };
}

/**
 * adoptPane's answer from the /proc and cgroup files of the machine the pane runs on, read
 * through `read` (this host's, or a remote one's fetched over its connection): its
 * /proc/self/cgroup and mountinfo (the shell that reads them is "the host" a cgroup must
 * never hold), the cgroup's cgroup.procs, and the pane's /proc subtree.
 */
export function adoptedContainment(
  session: string,
  dirs: readonly string[] | undefined,
  pid: number | undefined,
  read: ProcRead,
  platform: NodeJS.Platform,
): PaneContainment {
  if (dirs !== undefined && platform === 'linux') {
    const refusal = adoptRefusal({
      dirs,
      id: session,
      mountinfo: read('/proc/self/mountinfo') ?? '',
      layout: hostCgroupLayout((file) => {
        const text = read(file);
        if (text === undefined) throw new Error(`${file} could not be read`);
        return text;
      }),
    });
    const member =
      pid === undefined || (read(`${dirs[0]}/cgroup.procs`) ?? '').split('\n').includes(String(pid));
    if (refusal === undefined && member) return 'cgroup';
  }
  if (pid !== undefined && namespacedProgramPid(pid, read) !== undefined) return 'pid-namespace';
  return 'marker';
}

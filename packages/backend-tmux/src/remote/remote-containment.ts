// Containment on the machine of a remote tmux server: the local pane's choice and checks
// (containment.ts) with effects that run there. A cgroup is made beneath the remote shell's
// own (cgroup-sh.ts), named `procmux-<this host's pid>-<tmux session>` as a local pane's; a
// pid namespace is supervisor's wrap, probed there; a re-attached pane's cgroup is checked
// against that machine's /proc, read over the connection.
import {
  CGROUP_PREFIX,
  namespacedProgramPid,
  type PidNamespaceSpec,
  type PidNamespaceSupport,
  pidNamespaceSupport,
  pidNamespaceTarget,
} from '@procmux/supervisor';
import { adoptedContainment, type PaneContainment, type PaneHolder, type ProcRead } from '../containment.js';
import { isSafePath } from '../layout.js';
import type { TmuxResult } from '../tmux-cli.js';
import { CG_KILL, REMOTE_CGROUP } from './cgroup-sh.js';
import { commandLine, quoteWord, type RemoteTmuxHost } from './host.js';

/** Runs a POSIX sh command line on the remote machine to its end (never throws for a non-zero exit). */
export type RemoteRun = (command: string) => Promise<TmuxResult>;

/** A cgroup on the remote machine: its directory there. */
export interface RemoteCgroup {
  dir: string;
}

/** Makes a remote pane's cgroup and probes the pid namespace there (once). */
export function remoteHolder(host: RemoteTmuxHost): PaneHolder<RemoteCgroup> {
  let namespace: Promise<PidNamespaceSupport> | undefined;
  return {
    where: ` on ${host.name}`,
    async cgroup(name) {
      const out = await host.run(
        `${REMOTE_CGROUP}\ncg_make ${quoteWord(`${CGROUP_PREFIX}${process.pid}-${name}`)}`,
      );
      const dir = out.stdout.trim();
      if (out.code !== 0 || dir === '') return out.stderr.trim() || `cg_make ended with code ${out.code}`;
      // Its path goes unquoted into the pane-died hook (run by sh): refused rather than quoted.
      if (isSafePath(dir)) return { dir };
      await removeRemoteCgroup(host.run, dir);
      return `its cgroup path ${JSON.stringify(dir)} holds characters the pane-died hook cannot take unquoted`;
    },
    pidNamespace: () => {
      namespace ??= remotePidNamespaceSupport((command) => host.run(command));
      return namespace;
    },
  };
}

/** Ends every member of a remote cgroup and removes it; true once it is gone. */
export async function removeRemoteCgroup(run: RemoteRun, dir: string): Promise<boolean> {
  return (await run(`${CG_KILL}; cg_kill ${quoteWord(dir)}`)).code === 0;
}

/**
 * supervisor's pidNamespaceSupport answered on the remote machine: its kernel (`uname -s`),
 * its user (`id -u`), its PATH (unshare, setpriv) and one probe run there.
 */
export async function remotePidNamespaceSupport(run: RemoteRun): Promise<PidNamespaceSupport> {
  const facts = await run(
    'uname -s; id -u; for t in unshare setpriv; do command -v "$t" >/dev/null 2>&1 && echo "$t"; done',
  );
  const lines = facts.stdout.split('\n').map((line) => line.trim());
  return pidNamespaceSupport({
    platform: (lines[0] ?? '').toLowerCase() as NodeJS.Platform,
    euid: Number(lines[1]),
    which: (name) => lines.slice(2).includes(name),
    run: async (file, args) => {
      const out = await run(commandLine([file, ...args]));
      return { code: out.code, stderr: out.stderr };
    },
  });
}

/**
 * Reads files of the remote machine in one command: `files` as named, and, for `tree`, the
 * /proc children and status files of that pid and its descendants (six levels: enough for a
 * pane's shell, the waiter of a pid namespace and its children). /proc/self is the reading
 * shell's, the remote connection's.
 */
export async function remoteProcRead(
  run: RemoteRun,
  files: readonly string[],
  tree?: number,
): Promise<ProcRead> {
  const walk =
    tree === undefined
      ? ''
      : `l=${tree} n=0; while [ -n "$l" ] && [ "$n" -lt 6 ]; do k=; for p in $l; do ` +
        'f "/proc/$p/task/$p/children"; f "/proc/$p/status"; ' +
        'k="$k $(cat "/proc/$p/task/$p/children" 2>/dev/null)"; done; l=$(echo $k); n=$((n + 1)); done';
  const out = await run(
    `f() { [ -r "$1" ] || return 0; printf '%s\\001' "$1"; cat "$1" 2>/dev/null; printf '\\002'; }; ` +
      `for x in ${commandLine(files)}; do f "$x"; done; ${walk}`,
  );
  const read = new Map<string, string>();
  for (const record of out.stdout.split('\u0002')) {
    const at = record.indexOf('\u0001');
    if (at > 0) read.set(record.slice(0, at).replace(/^\n+/, ''), record.slice(at + 1));
  }
  return (path) => read.get(path);
}

/**
 * What a re-attached remote pane really has (containment.ts's adoptedContainment on the files
 * of its machine): its cgroup only when it is the one made for this session, on a cgroup
 * mount there, holding the pane's process and not the remote shell.
 */
export async function adoptRemotePane(
  run: RemoteRun,
  session: string,
  dirs: readonly string[] | undefined,
  pid: number | undefined,
): Promise<PaneContainment> {
  const files = ['/proc/self/cgroup', '/proc/self/mountinfo', ...(dirs ? [`${dirs[0]}/cgroup.procs`] : [])];
  const read = await remoteProcRead(run, files, pid);
  const linux = read('/proc/self/mountinfo') !== undefined;
  return adoptedContainment(session, dirs, pid, read, linux ? 'linux' : 'darwin');
}

/**
 * The remote pid a signal for the program goes to: in a pid namespace, the program under its
 * waiter (which blocks INT and TERM); else `pid` itself.
 */
export async function remoteProgramPid(run: RemoteRun, pid: number): Promise<number> {
  const read = await remoteProcRead(run, [], pid);
  return namespacedProgramPid(pid, read) ?? pid;
}

/**
 * The words that run a program in a pid namespace of its own (supervisor's wrap: the program
 * is not the init, its exit status and signals stay its own), the program's words after them.
 * `withStatus`: the waiter's status file comes first, then the program (readWaiterExit).
 */
export function namespaceWords(spec: PidNamespaceSpec, withStatus = false): string[] {
  const wrapped = pidNamespaceTarget({ file: '', args: [] }, spec, withStatus ? '' : undefined);
  return [wrapped.file, ...wrapped.args.slice(0, withStatus ? -2 : -1)];
}

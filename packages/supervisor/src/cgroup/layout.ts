// Where the host's own cgroup is, in every hierarchy this host mounts: pure functions of the
// text of /proc/self/cgroup and /proc/self/mountinfo, so a pure v2 host, a hybrid one (v2 for
// membership, controllers in v1) and a container (mount root not '/') are all unit-tested.

/** The v1 controllers procmux uses: limits and usage, and the freezer for a v1-only kill. */
export const V1_CONTROLLERS = ['memory', 'pids', 'cpu', 'cpuacct', 'freezer'] as const;
export type V1Controller = (typeof V1_CONTROLLERS)[number];

/** The host's own cgroup directory in each hierarchy it can see; nothing else is ever touched. */
export interface CgroupLayout {
  /** The host's cgroup in the v2 (unified) hierarchy, or undefined when v2 is not mounted. */
  unified: string | undefined;
  /** The host's cgroup in each v1 hierarchy that carries one of V1_CONTROLLERS. */
  v1: Partial<Record<V1Controller, string>>;
}

interface CgroupLine {
  controllers: string[];
  path: string;
}

interface CgroupMount {
  version: 1 | 2;
  root: string;
  mountPoint: string;
  controllers: string[];
}

/** `/proc/self/cgroup`: `hierarchy-id:controller,list:/path`, `0::/path` for v2. */
export function parseProcCgroup(text: string): CgroupLine[] {
  const lines: CgroupLine[] = [];
  for (const line of text.split('\n')) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    lines.push({ controllers: match[2] === '' ? [] : match[2]!.split(','), path: match[3]! });
  }
  return lines;
}

/** The cgroup and cgroup2 mounts of `/proc/self/mountinfo` (proc(5)). */
export function parseCgroupMounts(text: string): CgroupMount[] {
  const mounts: CgroupMount[] = [];
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (left === undefined || right === undefined) continue;
    const fields = left.split(' ');
    const [fstype, , superOptions = ''] = right.split(' ');
    if (fstype !== 'cgroup' && fstype !== 'cgroup2') continue;
    const root = unescapeMountField(fields[3] ?? '');
    const mountPoint = unescapeMountField(fields[4] ?? '');
    if (root === '' || mountPoint === '') continue;
    const controllers =
      fstype === 'cgroup2' ? [] : superOptions.split(',').filter((o) => o !== '' && o !== 'rw' && o !== 'ro');
    mounts.push({ version: fstype === 'cgroup2' ? 2 : 1, root, mountPoint, controllers });
  }
  return mounts;
}

/**
 * The host's own cgroup directory in every hierarchy: the mount of that hierarchy whose root
 * is a prefix of the host's path, plus the rest of the path. A hierarchy whose mount does not
 * reach the host's cgroup (a container that sees only a sub-tree of another) is left out.
 *
 * @example
 * discoverLayout('0::/user.slice/app\n', '30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n');
 * // { unified: '/sys/fs/cgroup/user.slice/app', v1: {} }
 */
export function discoverLayout(procSelfCgroup: string, mountinfo: string): CgroupLayout {
  const lines = parseProcCgroup(procSelfCgroup);
  const mounts = parseCgroupMounts(mountinfo);
  const layout: CgroupLayout = { unified: undefined, v1: {} };
  const v2Line = lines.find((l) => l.controllers.length === 0);
  if (v2Line) {
    layout.unified = firstDir(
      mounts.filter((m) => m.version === 2),
      v2Line.path,
    );
  }
  for (const line of lines) {
    const wanted = line.controllers.filter((c): c is V1Controller =>
      (V1_CONTROLLERS as readonly string[]).includes(c),
    );
    if (wanted.length === 0) continue;
    const sameHierarchy = mounts.filter((m) => m.version === 1 && sameSet(m.controllers, line.controllers));
    const dir = firstDir(sameHierarchy, line.path);
    if (dir !== undefined) for (const controller of wanted) layout.v1[controller] = dir;
  }
  return layout;
}

function firstDir(mounts: CgroupMount[], path: string): string | undefined {
  for (const mount of mounts) {
    const dir = joinBeneath(mount, path);
    if (dir !== undefined) return dir;
  }
  return undefined;
}

function joinBeneath(mount: CgroupMount, path: string): string | undefined {
  const root = mount.root === '/' ? '' : mount.root.replace(/\/$/, '');
  if (path !== root && !path.startsWith(`${root}/`)) return undefined;
  const rest = path.slice(root.length).replace(/\/$/, '');
  if (rest.split('/').some((segment) => segment === '..')) return undefined;
  return `${mount.mountPoint.replace(/\/$/, '')}${rest}`;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/** True when `dir` is `parent` or lies beneath it (both absolute, no `..`). */
export function isBeneath(dir: string, parent: string): boolean {
  const base = parent.replace(/\/$/, '');
  return dir === base || dir.startsWith(`${base}/`);
}

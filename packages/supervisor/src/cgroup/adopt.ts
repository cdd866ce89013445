// A cgroup a previous host made for a session (a tmux pane that outlived it): which of the
// paths a record names a recovering host may end and remove. Only a procmux cgroup made for
// that very session, on a cgroup mount of this machine, and never one holding this host.
import { type CgroupLayout, isBeneath, parseCgroupMounts } from './layout.js';
import { CGROUP_PREFIX } from './plan.js';

export interface AdoptCheck {
  /** The directories the record names, the membership one first. */
  dirs: readonly string[];
  /** The session id the cgroup was made for: its name is `procmux-<host pid>-<id>`. */
  id: string;
  /** The text of /proc/self/mountinfo. */
  mountinfo: string;
  /** This host's own cgroups: a cgroup at or above one of them is never adopted. */
  layout: CgroupLayout | undefined;
}

/**
 * Undefined when every directory may be adopted, else the reason it may not: each must be an
 * absolute path without `..` beneath a cgroup mount, all named `procmux-<pid>-<id>` for this
 * session's id, and none may hold this host itself (killing it would kill the host).
 *
 * @example
 * adoptRefusal({ dirs: ['/sys/fs/cgroup/app/procmux-42-pm-1'], id: 'pm-1', mountinfo, layout }); // undefined
 */
export function adoptRefusal(check: AdoptCheck): string | undefined {
  const { dirs, id } = check;
  if (dirs.length === 0) return 'the record names no cgroup';
  const name = new RegExp(`^${CGROUP_PREFIX}\\d+-${id.replace(/[.]/g, '\\.')}$`);
  const mounts = parseCgroupMounts(check.mountinfo).map((m) => m.mountPoint);
  const own = [check.layout?.unified, ...Object.values(check.layout?.v1 ?? {})].filter(
    (d): d is string => d !== undefined,
  );
  for (const dir of dirs) {
    if (!dir.startsWith('/') || dir.split('/').some((s) => s === '..' || s === '.'))
      return `${dir} is not an absolute path without . or ..`;
    if (!name.test(dir.slice(dir.lastIndexOf('/') + 1)))
      return `${dir} is not the cgroup procmux made for session ${id}`;
    if (!mounts.some((mount) => isBeneath(dir, mount) && dir !== mount))
      return `${dir} is not beneath a cgroup mount of this machine`;
    if (own.some((mine) => isBeneath(mine, dir))) return `${dir} holds this host itself`;
  }
  return undefined;
}

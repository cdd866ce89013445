// The host → watchdog link: one line per change, written to the watchdog's stdin.
//   + <marker> <pid>   a tree to kill if the host goes (pid 0: spawning, not known yet)
//   - <marker>         that tree ended (or is no longer the host's to end)
//   c <marker> <dir>   the tree's cgroup directory (the membership one first): killed and
//                      removed with the tree
//   d <marker> <dir>   a private directory of the tree's (an OS sandbox's): removed after
//                      the tree is killed
//   s <marker> <unit>  the tree's systemd user scope: every process in it is killed with the
//                      tree (`systemctl --user kill`)
//   bye                the host disposed its registry: exit without killing anything

/** A tree the watchdog answers for: its root pid (0 while spawning) and its marker. */
export interface WatchedTree {
  readonly marker: string;
  readonly pid: number;
  /** The session's cgroup directories, the membership one first (Linux); [] without one. */
  readonly cgroups?: readonly string[];
  /** Directories of the host's the tree uses (`procmux-*`), removed once it is killed. */
  readonly dirs?: readonly string[];
  /** The systemd user scope (`systemd-run --unit`) the tree runs in; absent without one. */
  readonly scope?: string;
}

/** What the watchdog may remove: absolute, no `..`, its last part named by procmux. */
export function isPrivateDir(path: string): boolean {
  return (
    path.startsWith('/') &&
    !path.includes('\0') &&
    !path.includes('\n') &&
    !path.split('/').includes('..') &&
    path.slice(path.lastIndexOf('/') + 1).startsWith('procmux-')
  );
}

export type WatchdogMessage =
  | { readonly kind: 'add'; readonly tree: WatchedTree }
  | { readonly kind: 'remove'; readonly marker: string }
  | { readonly kind: 'cgroup'; readonly marker: string; readonly dir: string }
  | { readonly kind: 'dir'; readonly marker: string; readonly dir: string }
  | { readonly kind: 'scope'; readonly marker: string; readonly unit: string }
  | { readonly kind: 'bye' };

export function encodeMessage(message: WatchdogMessage): string {
  switch (message.kind) {
    case 'add':
      return `+ ${message.tree.marker} ${message.tree.pid}\n`;
    case 'remove':
      return `- ${message.marker}\n`;
    case 'cgroup':
      return `c ${message.marker} ${message.dir}\n`;
    case 'dir':
      return `d ${message.marker} ${message.dir}\n`;
    case 'scope':
      return `s ${message.marker} ${message.unit}\n`;
    case 'bye':
      return 'bye\n';
  }
}

/** One line (without its newline) → a message; anything malformed is undefined (ignored). */
export function decodeMessage(line: string): WatchdogMessage | undefined {
  if (line === 'bye') return { kind: 'bye' };
  const add = /^\+ ([A-Za-z0-9._-]{1,128}) (\d{1,10})$/.exec(line);
  if (add) return { kind: 'add', tree: { marker: add[1]!, pid: Number(add[2]) } };
  const remove = /^- ([A-Za-z0-9._-]{1,128})$/.exec(line);
  if (remove) return { kind: 'remove', marker: remove[1]! };
  // An absolute path without a newline; anything else is ignored, never acted on.
  const cgroup = /^c ([A-Za-z0-9._-]{1,128}) (\/[^\0]{1,4000})$/.exec(line);
  if (cgroup && !cgroup[2]!.split('/').includes('..'))
    return { kind: 'cgroup', marker: cgroup[1]!, dir: cgroup[2]! };
  const dir = /^d ([A-Za-z0-9._-]{1,128}) (\/[^\0]{1,4000})$/.exec(line);
  if (dir && isPrivateDir(dir[2]!)) return { kind: 'dir', marker: dir[1]!, dir: dir[2]! };
  // Only a scope procmux named: the watchdog never kills a unit of anyone else's.
  const scope = /^s ([A-Za-z0-9._-]{1,128}) (procmux-[A-Za-z0-9._-]{1,191})$/.exec(line);
  if (scope) return { kind: 'scope', marker: scope[1]!, unit: scope[2]! };
  return undefined;
}

/** The watched set a stream of messages leaves: what the watchdog kills when the link closes. */
export class WatchedSet {
  readonly #trees = new Map<string, WatchedTree>();
  #bye = false;

  apply(message: WatchdogMessage): void {
    if (message.kind === 'add') {
      // A later add (the pid, once known) keeps the cgroup and dir lines that came before it.
      const known = this.#trees.get(message.tree.marker);
      const cgroups = message.tree.cgroups ?? known?.cgroups;
      const dirs = message.tree.dirs ?? known?.dirs;
      const scope = message.tree.scope ?? known?.scope;
      this.#trees.set(message.tree.marker, {
        ...message.tree,
        ...(cgroups?.length ? { cgroups } : {}),
        ...(dirs?.length ? { dirs } : {}),
        ...(scope === undefined ? {} : { scope }),
      });
    } else if (message.kind === 'cgroup') {
      const known = this.#trees.get(message.marker);
      if (known)
        this.#trees.set(message.marker, { ...known, cgroups: [...(known.cgroups ?? []), message.dir] });
    } else if (message.kind === 'dir') {
      const known = this.#trees.get(message.marker);
      if (known) this.#trees.set(message.marker, { ...known, dirs: [...(known.dirs ?? []), message.dir] });
    } else if (message.kind === 'scope') {
      const known = this.#trees.get(message.marker);
      if (known) this.#trees.set(message.marker, { ...known, scope: message.unit });
    } else if (message.kind === 'remove') this.#trees.delete(message.marker);
    else this.#bye = true;
  }

  /** True once the host said bye: nothing is to be killed. */
  get disposed(): boolean {
    return this.#bye;
  }

  trees(): WatchedTree[] {
    return this.#bye ? [] : [...this.#trees.values()];
  }
}

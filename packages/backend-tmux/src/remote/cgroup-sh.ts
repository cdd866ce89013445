// A session's cgroup on a machine this host's node does not run on (a remote tmux pane, the
// SSH backend's wrapper), in POSIX sh: the one implementation both use, and the pane-died
// hook too (cg_kill is one line with no single quote and no '#', so tmux can carry it).

/**
 * `cg_kill DIR` ends every member of the cgroup DIR (v2 `cgroup.kill`; v1: freeze, SIGKILL
 * each member, thaw), waits until none is left (5 s at most) and removes DIR; status 0 once
 * DIR is gone. A DIR that is empty or already gone is no error.
 */
export const CG_KILL =
  'cg_kill() { [ -n "$1" ] && [ -d "$1" ] || return 0; ' +
  'if [ -e "$1/cgroup.kill" ]; then echo 1 > "$1/cgroup.kill"; ' +
  'else echo FROZEN > "$1/freezer.state"; kill -KILL $(cat "$1/cgroup.procs") 2>/dev/null; echo THAWED > "$1/freezer.state"; fi 2>/dev/null; ' +
  'i=0; while [ -n "$(cat "$1/cgroup.procs" 2>/dev/null)" ] && [ "$i" -lt 100 ]; do ' +
  '[ -e "$1/cgroup.kill" ] || kill -KILL $(cat "$1/cgroup.procs" 2>/dev/null) 2>/dev/null; sleep 0.05; i=$((i + 1)); done; ' +
  'rmdir "$1" 2>/dev/null; [ ! -d "$1" ]; }';

/**
 * The remote cgroup functions: `cg_parent` prints the calling shell's own v2 cgroup directory
 * (`0::/path` of /proc/self/cgroup under a cgroup2 mount whose root is a prefix of it), else
 * its v1 freezer one, else nothing; `cg_make NAME` makes NAME beneath it and prints the
 * directory (status 1 and the reason on stderr when it cannot); `cg_kill DIR` as above.
 * Nothing above the shell's own cgroup is ever written, no process is moved out of it.
 *
 * The v2 lookup reads both files with the shell's own \`read\` (a mountinfo line: id, parent,
 * device, root, mount point, options, optional fields, \`-\`, fs type, source, super options):
 * a sed and an awk forked on every SSH session's start path were ~3 of its ~12 ms there. The
 * v1 freezer lookup, rare now, keeps awk.
 */
export const REMOTE_CGROUP = `cg_parent() {
  [ -r /proc/self/cgroup ] && [ -r /proc/self/mountinfo ] || return 0
  p= t=cgroup2
  while IFS= read -r x; do case $x in 0::*) p=\${x#0::} ;; esac; done < /proc/self/cgroup
  [ -n "$p" ] || { p=$(awk -F: '$2 ~ /(^|,)freezer(,|$)/ { print substr($0, length($1 $2) + 3) }' /proc/self/cgroup) t=freezer; }
  [ -n "$p" ] || return 0
  if [ "$t" = cgroup2 ]; then
    while read -r x x x r m o; do
      case \${o#* - } in "cgroup2 "*) ;; *) continue ;; esac
      [ "$r" = / ] && r=
      case $p in "$r" | "$r"/*) echo "$m\${p#"$r"}"; return 0 ;; esac
    done < /proc/self/mountinfo
    return 0
  fi
  awk -v p="$p" -v t="$t" '{
    for (i = 7; i < NF; i++) if ($i == "-") {
      if (t == "cgroup2" ? $(i + 1) == "cgroup2" : $(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)freezer(,|$)/) {
        r = $4; if (r == "/") r = ""
        if (p == r || index(p, r "/") == 1) { print $5 substr(p, length(r) + 1); exit }
      }
      break
    }
  }' /proc/self/mountinfo
}
cg_make() {
  q=$(cg_parent 2>/dev/null)
  case "$q" in
    /*) ;;
    *) echo "no cgroup of the remote shell was found beneath a cgroup v2 mount or a v1 freezer mount" >&2; return 1 ;;
  esac
  mkdir "\${q%/}/$1" 2>/dev/null || { echo "\${q%/} is not writable (a cgroup cannot be made beneath the remote shell's own)" >&2; return 1; }
  echo "\${q%/}/$1"
}
${CG_KILL}`;

// The POSIX sh run on the remote host. Nothing here relies on SSH signals (most servers ignore
// them): the wrapper owns the process and its group, the killer ends the tree by marker.
// The remote cgroup functions (cg_parent, cg_make, cg_kill) are the remote tmux panes' too.
import { REMOTE_CGROUP } from '@procmux/backend-tmux';

export { REMOTE_CGROUP };

/** Quotes one word for a POSIX shell. */
export function shQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Lists the tree of process group $1 plus every process carrying PROCMUX_TREE=$2 (setsid
 * children, orphaned double forks), without zombies. /proc/<pid>/environ on Linux; `ps -E`
 * (macOS) prints environments after the command.
 */
const TREE = `tree() {
  { ps -A -o pid= -o pgid= -o stat= 2>/dev/null | awk -v g="$1" '$2 == g && $3 !~ /^Z/ { print $1 }'
    if [ -r /proc/self/environ ]; then
      grep -l -F -e "PROCMUX_TREE=$2" /proc/[0-9]*/environ 2>/dev/null | sed 's|^/proc/||; s|/environ$||'
    else
      ps -A -E -o pid= -o command= 2>/dev/null | grep -F -e "PROCMUX_TREE=$2" | awk '{ print $1 }'
    fi
  } | sort -u | grep -v -x -e '' || true
}
kill_tree() {
  p=$(tree "$1" "$2")
  [ -n "$p" ] || return 0
  kill -TERM $p 2>/dev/null
  i=0
  while [ "$i" -lt "$3" ]; do
    sleep 0.05
    p=$(tree "$1" "$2")
    [ -n "$p" ] || return 0
    i=$((i + 1))
  done
  j=0
  while [ -n "$p" ] && [ "$j" -lt 20 ]; do
    kill -KILL $p 2>/dev/null
    sleep 0.05
    p=$(tree "$1" "$2")
    j=$((j + 1))
  done
  [ -z "$p" ]
}`;

/**
 * The monitor: `sh -c MONITOR procmux-ssh-monitor PID MARKER GRACE_TICKS SSHD_PID CGROUP STATUS`, in its own
 * session (outside the program's group and terminal, so neither a tree kill nor a hangup
 * reaches it). Once a second: when the sshd process serving the connection is gone, it kills
 * the tree; once the program's group is empty and no marked process remains, it exits. That
 * last check runs once per session on a busy host, so its usual case costs one grep, not the
 * six processes of tree(): an empty group is one `kill -s 0` (builtin), the marker one grep.
 * With a CGROUP (still there): once the program's own process is gone, every member left is
 * killed and the cgroup removed (a local session's cgroup ends with its process too), and a
 * lost connection does the same (escapees the marker misses). STATUS (a pid namespace's private
 * directory for the waiter's status) is removed when the connection is lost; otherwise the host
 * reads and removes it once the exit status arrived.
 */
const MONITOR = `${TREE}
${REMOTE_CGROUP}
ended() {
  if kill -s 0 -- "-$1" 2>/dev/null; then [ -z "$(tree "$1" "$2")" ]; return; fi
  if [ -r /proc/self/environ ]; then
    ! grep -q -s -F -e "PROCMUX_TREE=$2" /proc/[0-9]*/environ
  else
    [ -z "$(tree "$1" "$2")" ]
  fi
}
while :; do
  sleep 1
  if ! kill -0 "$4" 2>/dev/null && [ ! -d "/proc/$4" ]; then kill_tree "$1" "$2" "$3"; cg_kill "$5"; [ -z "$6" ] || [ ! -d "$6" ] || rm -rf -- "$6"; exit 0; fi
  if [ -n "$5" ] && [ -d "$5" ]; then
    kill -0 "$1" 2>/dev/null || { cg_kill "$5"; ended "$1" "$2" && exit 0; }
  elif ended "$1" "$2"; then exit 0; fi
done`;

/**
 * Closes every inherited descriptor above stderr, then runs `"$0" "$@"` under bash: the same
 * prologue as a local session's (shell-wrap's close-inherited-fds.bash), inline because the
 * remote host has no copy of that file. The exec keeps the pid, so the exit status stays exact.
 */
const BASH_CLOSE_FDS = `for f in /dev/fd/*; do f=\${f##*/}; ((f > 2)) && eval "exec $f>&-"; done; unset f; exec "$0" "$@"`;

/**
 * The wrapper: `sh -c WRAPPER procmux-ssh NONCE MARKER GRACE_TICKS ROOT CWD MONITOR KIND MODE NS
 * PROGRAM ARGS...`, exec'd by the login shell, so sshd's child is the wrapper and it leads its own
 * session and group (sshd calls setsid). It checks the cwd stays inside ROOT (`cd -P` sets
 * $PWD to the physical path, so no `$(pwd -P)` subshell forks on the start path), starts the
 * monitor (setsid(1), else perl's setpgrp, else in the group), prints one header line
 * (`NONCE:pid:PID:MONITOR:SHELL:CONTAINMENT:CGROUP`) on stderr, then execs the program with the tree marker: the
 * program keeps the wrapper's pid, so sshd's own waitpid reports its exact end (exit-status
 * or exit-signal), which sh's $? could not (128+n is ambiguous).
 *
 * KIND `shell`: PROGRAM is a command string, run as a local one is: `bash --norc -c` where the
 * remote host has bash, else `sh -c` (SHELL in the header says which). Either way, descriptors
 * above stderr are closed first: sh closes 3-9 (all it can name), and only when /dev/fd lists
 * one above 9 (or cannot be listed) does bash close them first, as a local session's prologue
 * does. sshd leaves a session 0-2 only, so the start path no longer pays a bash for it (~1.5
 * of the wrapper's ~12 ms).
 *
 * Containment (MODE: auto, cgroup, pid-namespace, marker): where the remote shell's own cgroup
 * has room, `procmux-MARKER` is made beneath it before the monitor starts (so the monitor
 * stays outside it) and the wrapper joins it before the exec, so nothing the program starts is
 * outside it. Else, with NS (the words that run a program in a pid namespace there, probed by
 * the host: empty when there is none), the program runs in a pid namespace of its own; else the
 * marker sweep. A MODE the remote cannot give ends the wrapper with `NONCE:error:containment:WHY`.
 *
 * In a pid namespace the program is still exec'd (the waiter keeps the wrapper's pid, so every
 * exit code and signal stays exact through sshd), but util-linux 2.38's waiter cannot re-raise
 * SIGKILL and exits 1. NS then takes a status file first: `procmux-pidns-MARKER/waiter` in a
 * private directory made here (`mkdir` refuses one that exists), named in the header's last
 * field; the host reads it once the exit arrived (readWaiterExit) and removes the directory,
 * the monitor removes it when the connection is lost. (sh's own `$?` could not be used instead:
 * it reads the program's `exit 130` and its death by SIGINT alike.)
 */
const WRAPPER = `${REMOTE_CGROUP}
n=$1 m=$2 g=$3 r=$4 d=$5 ms=$6 k=$7 o=$8 ns=$9
shift 9
cd -P -- "$r" 2>/dev/null || { printf '%s:error:workspace\\n' "$n" >&2; exit 126; }
r=$PWD
cd -P -- "$d" 2>/dev/null || { printf '%s:error:cwd\\n' "$n" >&2; exit 126; }
case "$PWD/" in "\${r%/}"/*) ;; *) printf '%s:error:outside\\n' "$n" >&2; exit 126 ;; esac
w=$$ s=$PPID c= f=
refuse() { printf '%s:error:containment:%s\\n' "$n" "$*" >&2; exit 126; }
case "$o" in auto|cgroup) c=$(cg_make "procmux-$m" 2>&1) || { [ "$o" = cgroup ] && refuse "$c"; c=; } ;; esac
[ -n "$ns" ] && case "$o" in auto|pid-namespace) f="\${TMPDIR:-/tmp}/procmux-pidns-$m" ;; esac
if command -v setsid >/dev/null 2>&1; then
  setsid sh -c "$ms" procmux-ssh-monitor "$w" "$m" "$g" "$s" "$c" "$f" </dev/null >/dev/null 2>&1 &
elif command -v perl >/dev/null 2>&1; then
  perl -e 'setpgrp(0, 0); exec @ARGV' sh -c "$ms" procmux-ssh-monitor "$w" "$m" "$g" "$s" "$c" "$f" </dev/null >/dev/null 2>&1 &
else
  (trap '' HUP INT QUIT; exec sh -c "$ms" procmux-ssh-monitor "$w" "$m" "$g" "$s" "$c" "$f") </dev/null >/dev/null 2>&1 &
fi
h=marker
if [ -n "$c" ]; then
  if { echo "$w" > "$c/cgroup.procs"; } 2>/dev/null; then h=cgroup; else rmdir "$c" 2>/dev/null; [ "$o" = cgroup ] && refuse "$c could not be joined"; c=; fi
fi
[ "$h" = marker ] && [ -n "$ns" ] && { [ "$o" = auto ] || [ "$o" = pid-namespace ]; } && h=pid-namespace
b=
command -v bash >/dev/null 2>&1 && b=bash
sh=
if [ "$k" = shell ]; then
  sh=\${b:-sh}
  if [ -n "$b" ]; then set -- bash --norc -c "$1"; else set -- sh -c "$1"; fi
fi
if [ "$h" = pid-namespace ]; then
  mkdir -m 700 -- "$f" 2>/dev/null || refuse "$f could not be made"
  eval "set -- $ns \\"\\$f/waiter\\" \\"\\$@\\""
  c=$f
fi
printf '%s:pid:%s:%s:%s:%s:%s\\n' "$n" "$w" "$!" "$sh" "$h" "$c" >&2
PROCMUX_TREE=$m
export PROCMUX_TREE
if [ -n "$b" ]; then
  for x in /dev/fd/*; do case \${x##*/} in [0-9]) ;; *) exec bash --norc -c '${BASH_CLOSE_FDS}' "$@" ;; esac; done
fi
exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
exec "$@"`;

/**
 * The killer, run over its own exec: `sh -c KILLER procmux-ssh-kill PGID MARKER GRACE_TICKS
 * [CGROUP]`. The group and marked processes get the grace; then every member of the cgroup
 * (what the marker cannot find) is killed with it and the cgroup removed.
 */
const KILLER = `${TREE}
${REMOTE_CGROUP}
kill_tree "$1" "$2" "$3"
cg_kill "$4"
p="$(tree "$1" "$2") $(cat "$4/cgroup.procs" 2>/dev/null)"
p=$(echo $p)
if [ -z "$p" ]; then echo killed; else echo "survivors: $p"; fi`;

export interface WrapperCommand {
  nonce: string;
  marker: string;
  graceMs: number;
  workspace: string;
  cwd: string;
  /** Variables set for the program on top of the remote login's environment. */
  env: Record<string, string>;
  /** `shell`: `file` is a command string for the remote shell; `exec`: a program and its args. */
  kind: 'shell' | 'exec';
  file: string;
  args: string[];
  /** What holds the tree there (the SSH backend's `containment`). */
  mode: 'auto' | 'cgroup' | 'pid-namespace' | 'marker';
  /** The words that run a program in a pid namespace there; empty where there is none. */
  namespace: readonly string[];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The exec request's command line (run by the remote login shell, which must be POSIX). */
export function wrapperCommand(command: WrapperCommand): string {
  const exports = Object.entries(command.env)
    .filter(([name]) => ENV_NAME.test(name))
    .map(([name, value]) => `export ${name}=${shQuote(value)}; `)
    .join('');
  const words = [
    'procmux-ssh',
    command.nonce,
    command.marker,
    String(graceTicks(command.graceMs)),
    command.workspace,
    command.cwd,
    MONITOR,
    command.kind,
    command.mode,
    command.namespace.map(shQuote).join(' '),
    command.file,
    ...command.args,
  ];
  return `${exports}exec sh -c ${shQuote(WRAPPER)} ${words.map(shQuote).join(' ')}`;
}

/** The remote tree kill for the wrapper whose process (and group) is `pid`. */
export function killerCommand(pid: number, marker: string, graceMs: number, cgroup = ''): string {
  const words = ['procmux-ssh-kill', String(pid), marker, String(graceTicks(graceMs))];
  if (cgroup !== '') words.push(cgroup);
  return `exec sh -c ${shQuote(KILLER)} ${words.map(shQuote).join(' ')}`;
}

/** Prints a pid-namespace run's waiter status (readWaiterExit) and removes its directory. */
export function waiterStatusCommand(dir: string): string {
  return `cat -- ${shQuote(`${dir}/waiter`)} 2>/dev/null; rm -rf -- ${shQuote(dir)}`;
}

/** Removes a pid-namespace run's status directory (the host no longer reads the exit). */
export function dropWaiterStatusCommand(dir: string): string {
  return `rm -rf -- ${shQuote(dir)}`;
}

/** One signal to the program itself (not its tree), as a local session's signal() does. */
export function signalCommand(pid: number, signal: string): string {
  return `kill -s ${shQuote(signal.replace(/^SIG/, ''))} ${pid}`;
}

// The killer polls every 50 ms.
function graceTicks(graceMs: number): number {
  return Math.ceil(graceMs / 50);
}

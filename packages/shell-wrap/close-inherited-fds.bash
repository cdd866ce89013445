# Sourced by bash through BASH_ENV before it runs a procmux command (see @procmux/shell-wrap,
# "Inherited descriptors"): closes every descriptor above stderr that this shell inherited.
# Node cannot mark a PTY master close-on-exec (node-pty leaves it inheritable) and libuv
# closes nothing for a child, so without this a process would hold other sessions' terminals.
# Closing an fd that is not open (the glob's own directory, gone already) is not an error.
# A session held by a cgroup joins it first, before anything can fork (see join-cgroup.ts):
# each cgroup.procs file named gets this shell's pid, the program's once it execs.
if [ -n "${PROCMUX_CGROUP_JOIN+set}" ]; then
  IFS=: read -r -a __procmux_fd <<<"$PROCMUX_CGROUP_JOIN"
  for __procmux_fd in "${__procmux_fd[@]}"; do
    echo $$ 2>/dev/null >"$__procmux_fd" || { echo "procmux: could not join the session's cgroup ($__procmux_fd)" >&2; exit 125; }
  done
  unset PROCMUX_CGROUP_JOIN
fi
for __procmux_fd in /dev/fd/*; do
  __procmux_fd=${__procmux_fd##*/}
  ((__procmux_fd > 2)) && eval "exec $__procmux_fd>&-"
done
unset __procmux_fd BASH_ENV
# A run that ends what it leaves behind asks for job control: background jobs get process
# groups of their own, so the terminal's hang-up as this shell exits (it leads the session)
# does not end them before procmux has named them. No trap: bash still execs the last command.
if [ -n "${PROCMUX_JOB_CONTROL+set}" ]; then
  unset PROCMUX_JOB_CONTROL
  set -m
fi
# A BASH_ENV the caller had set is honoured after the closing, and left to nested shells.
if [ -n "${PROCMUX_CALLER_BASH_ENV+set}" ]; then
  export BASH_ENV=$PROCMUX_CALLER_BASH_ENV
  unset PROCMUX_CALLER_BASH_ENV
  # shellcheck disable=SC1090
  . "$BASH_ENV"
fi

# Sourced by bash through BASH_ENV before it runs a procmux command (see
# @procmux/shell-wrap's README, "Inherited descriptors"): closes every descriptor above
# stderr that this shell inherited, then gets out of the way. Node cannot mark a PTY master
# close-on-exec (node-pty leaves it inheritable), and libuv closes nothing for a child, so
# without this every process would hold the terminals of every other session.
for __procmux_fd in /dev/fd/*; do
  __procmux_fd=${__procmux_fd##*/}
  case $__procmux_fd in
    0 | 1 | 2) ;;
    # The glob's own directory descriptor is listed but already closed: skip what is gone.
    *) [ -e "/dev/fd/$__procmux_fd" ] && eval "exec $__procmux_fd>&-" ;;
  esac
done
unset __procmux_fd BASH_ENV
# A BASH_ENV the caller set is honoured, after the closing (never seen by nested shells twice).
if [ -n "${PROCMUX_CALLER_BASH_ENV+set}" ]; then
  BASH_ENV=$PROCMUX_CALLER_BASH_ENV
  export BASH_ENV
  unset PROCMUX_CALLER_BASH_ENV
  # shellcheck disable=SC1090
  . "$BASH_ENV"
fi

// Joining a session's cgroup happens in the child, before it execs the program, so nothing
// the program starts can fork outside it. bash does it in close-inherited-fds.bash; the sh
// fallback (no bash on PATH) runs the line below.

/**
 * The environment variable naming the cgroup.procs files (':'-separated) the child writes its
 * own pid into before the program runs; unset before the program sees its environment. A
 * write that fails ends the child with status 125 and says so on stderr: a session never runs
 * outside the cgroup it was promised.
 */
export const CGROUP_JOIN_ENV = 'PROCMUX_CGROUP_JOIN';
/** Set for a bash run whose leftovers procmux names and ends: the prologue turns on `set -m`. */
export const JOB_CONTROL_ENV = 'PROCMUX_JOB_CONTROL';

/** The same join in POSIX sh, for the fallback without bash. */
export const SH_JOIN_CGROUP = `if [ -n "\${${CGROUP_JOIN_ENV}+set}" ]; then __p=$IFS; IFS=:; for __f in $${CGROUP_JOIN_ENV}; do echo $$ 2>/dev/null >"$__f" || { echo "procmux: could not join the session's cgroup ($__f)" >&2; exit 125; }; done; IFS=$__p; unset __p __f ${CGROUP_JOIN_ENV}; fi`;

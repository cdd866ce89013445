/*
 * sandbox-launch: the host's side of a sandboxed start, what the supervisor spawns.
 *
 *   sandbox-launch FILTER BWRAP [BWRAP_OPTION...]
 *
 * Does what the launcher's outer shell does (launcher.ts OUTER, with the shell-wrap prologue)
 * without bash's start: joins the session's cgroups (PROCMUX_CGROUP_JOIN, cgroup.procs files
 * separated by ':') before anything can fork, closes every descriptor above stderr it
 * inherited (other sessions' PTY masters: node-pty leaves them inheritable), opens FILTER (the
 * seccomp program) as descriptor 9, and execs BWRAP with `--ro-bind / / --dev /dev` first. Under
 * a terminal the session's own is bound as itself (`--tmpfs /dev/pts --dev-bind TTY TTY`) and
 * INT and QUIT are ignored, so bwrap outside survives Ctrl-C (sandbox-init restores them).
 * It reads no other variable: the program's arrive renamed (launcher.ts launchEnv).
 *
 * The host runs it from a copy only the host can reach (launch-file.ts), never from the
 * package's path, which a sandbox may be able to write. Exit: bwrap's; 125 when a cgroup
 * cannot be joined (as the shell prologue), 127/126 when bwrap cannot be run.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/* Kept in step with shell-wrap's join-cgroup.ts and close-inherited-fds.bash. */
#define CGROUP_JOIN_ENV "PROCMUX_CGROUP_JOIN"
#define FILTER_FD 9

static int join_cgroups(void) {
  const char *list = getenv(CGROUP_JOIN_ENV);
  if (!list) return 1;
  char *files = strdup(list), *save = NULL;
  if (!files) return 0;
  char pid[32];
  int len = snprintf(pid, sizeof pid, "%d\n", (int)getpid());
  for (char *file = strtok_r(files, ":", &save); file; file = strtok_r(NULL, ":", &save)) {
    int fd = open(file, O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, pid, (size_t)len) != len) {
      fprintf(stderr, "procmux: could not join the session's cgroup (%s)\n", file);
      return 0;
    }
    close(fd);
  }
  free(files);
  unsetenv(CGROUP_JOIN_ENV);
  return 1;
}

/* Every descriptor above stderr; /proc/self/fd where close_range is missing (Linux < 5.9). */
static void close_inherited(void) {
  if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
  DIR *dir = opendir("/proc/self/fd");
  if (!dir) return;
  int own = dirfd(dir), open_fds[1024], n = 0;
  struct dirent *entry;
  while ((entry = readdir(dir)) && n < 1024) {
    int fd = atoi(entry->d_name);
    if (fd > 2 && fd != own) open_fds[n++] = fd;
  }
  closedir(dir);
  for (int i = 0; i < n; i++) close(open_fds[i]);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: sandbox-launch FILTER BWRAP [BWRAP_OPTION...]\n");
    return 2;
  }
  if (!join_cgroups()) return 125;
  unsetenv("PROCMUX_JOB_CONTROL");
  close_inherited();
  int filter = open(argv[1], O_RDONLY);
  if (filter < 0 || (filter != FILTER_FD && dup2(filter, FILTER_FD) < 0)) {
    fprintf(stderr, "procmux sandbox: %s: %s\n", argv[1], strerror(errno));
    return 126;
  }
  if (filter != FILTER_FD) close(filter);
  char *tty = isatty(0) ? ttyname(0) : NULL;
  char **args = calloc((size_t)argc + 9, sizeof *args);
  if (!args) return 126;
  int k = 0;
  /* argv[0] as the shell's `exec bwrap` gave it: ps and the tree's readers see the same. */
  args[k++] = "bwrap";
  args[k++] = "--ro-bind", args[k++] = "/", args[k++] = "/";
  args[k++] = "--dev", args[k++] = "/dev";
  if (tty) {
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    args[k++] = "--tmpfs", args[k++] = "/dev/pts";
    args[k++] = "--dev-bind", args[k++] = tty, args[k++] = tty;
  }
  for (int i = 3; i < argc; i++) args[k++] = argv[i];
  execv(argv[2], args);
  int saved = errno;
  fprintf(stderr, "procmux sandbox: %s: %s\n", argv[2], strerror(saved));
  return saved == ENOENT ? 127 : 126;
}

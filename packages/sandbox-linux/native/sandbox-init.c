/*
 * sandbox-init: the first process inside a session's sandbox (bwrap's child).
 *
 *   sandbox-init PROXY_SOCKET PORT PROGRAM [ARG...]
 *
 * Listens on 127.0.0.1:PORT in the sandbox's own network namespace, forks a forwarder that
 * relays each connection to the host's proxy at PROXY_SOCKET (a unix socket, reachable
 * through the bind-mounted file system), then execs PROGRAM. The listener exists before the
 * program starts, so its first connection reaches the proxy and a refusal is told; socat did
 * the same job at the cost of its start (TLS libraries loaded before it listens, ~10 ms here)
 * and a shell polling for it. Under a terminal, INT and QUIT (ignored by the launcher's outer
 * shell so bwrap survives Ctrl-C) go back to their defaults for the program. When the proxy
 * asks, the forwarder also connects to a server on the sandbox's own loopback, which the host
 * cannot reach, and hands the connection back to it (open_inside).
 *
 * The program, and all it starts, can make sockets of the network namespace's families only
 * (a filter stacked on bwrap's, after the relay, which needs a unix one, has forked): a path
 * socket is a door out of every namespace, and the host's are visible read-only (a tmux
 * server's: `tmux -S /tmp/tmux-UID/default new-window CMD` ran CMD on the host, unconfined);
 * a vsock one reaches the VM's host. socketpair() stays (pipes between a program's own
 * processes); io_uring, which could make a socket past any filter, is refused with them.
 *
 * The program's variables arrive as PROCMUX_SANDBOX_ENV_NAME (launcher.ts PROGRAM_ENV_PREFIX:
 * nothing on the host's side of the launch reads them under their own names); the program gets
 * them back as NAME, with the host's tree marker and nothing else of the launcher's.
 *
 * Exit: PROGRAM's (it replaces this process); 127 when it is not found, 126 when it cannot be
 * run. Built static (no libraries to load) by scripts/build-native.mjs.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* Kept in step with launcher.ts: FORWARDER_NOT_LISTENING, PROGRAM_ENV_PREFIX, and core-types'
 * TREE_MARKER_ENV. */
#define PROGRAM_ENV_PREFIX "PROCMUX_SANDBOX_ENV_"
#define TREE_MARKER "PROCMUX_TREE="
#define NOT_LISTENING "procmux sandbox: the proxy forwarder could not listen"
/* Kept in step with inside.ts: the line each relayed connection starts with, so the proxy
 * knows a forwarder that can reach the sandbox's own loopback carries it, and the longest
 * instruction line. */
#define RELAY_HELLO "PROCMUX-RELAY 1\r\n"
#define INSTRUCTION_MAX 256

static int write_all(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0) {
      if (errno == EINTR) continue;
      return 0;
    }
    buf += n;
    len -= (size_t)n;
  }
  return 1;
}

static int connect_proxy(const char *path);
static void open_inside(char *instruction, const char *proxy, int a, int b);

/* Copies both ways until both sides have ended; an end on one side is passed on as a
 * half-close, so a request whose sender shut its writing side still gets its answer. With
 * `proxy` (a connection from a client to the proxy), the proxy's first line is for the
 * forwarder (open_inside), not passed on. */
static void relay(int a, int b, const char *proxy) {
  char buf[65536];
  int from_a = 1, from_b = 1, first_from_b = proxy != NULL;
  while (from_a || from_b) {
    struct pollfd p[2] = {{from_a ? a : -1, POLLIN, 0}, {from_b ? b : -1, POLLIN, 0}};
    if (poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (int i = 0; i < 2; i++) {
      int *open = i == 0 ? &from_a : &from_b;
      int src = i == 0 ? a : b, dst = i == 0 ? b : a;
      if (!*open || p[i].revents == 0) continue;
      ssize_t n = read(src, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0 && i == 1 && first_from_b) {
        first_from_b = 0;
        if (buf[0] == '\0') {
          /* The proxy's first line on a connection that said RELAY_HELLO (the answer, or the
           * server's bytes, follow it): INSIDE or nothing to do. Its rest, if a read split it,
           * follows at once. */
          size_t len = (size_t)n;
          while (len < INSTRUCTION_MAX && !memchr(buf, '\n', len)) {
            ssize_t m = read(b, buf + len, INSTRUCTION_MAX - len);
            if (m < 0 && errno == EINTR) continue;
            if (m <= 0) break;
            len += (size_t)m;
          }
          n = (ssize_t)len;
          char *end = memchr(buf, '\n', len < INSTRUCTION_MAX ? len : INSTRUCTION_MAX);
          if (end) {
            *end = '\0';
            if (strncmp(buf + 1, "PROCMUX-INSIDE ", 15) == 0) open_inside(buf + 1, proxy, a, b);
            n = (ssize_t)(len - (size_t)(end + 1 - buf));
            memmove(buf, end + 1, (size_t)n);
            if (n == 0) continue;
          }
        }
      }
      if (n <= 0) {
        *open = 0;
        shutdown(dst, SHUT_WR);
      } else if (!write_all(dst, buf, (size_t)n)) {
        return;
      }
    }
  }
}

/* A connection to HOST:PORT on the sandbox's own loopback; "localhost" is tried as 127.0.0.1,
 * then ::1. -1 when nothing listens there. */
static int connect_local(const char *host, int port) {
  const char *tries[2] = {host, NULL};
  if (strcmp(host, "localhost") == 0) {
    tries[0] = "127.0.0.1";
    tries[1] = "::1";
  }
  for (int t = 0; t < 2 && tries[t]; t++) {
    struct sockaddr_in v4 = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    struct sockaddr_in6 v6 = {.sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port)};
    struct sockaddr *addr;
    socklen_t size;
    if (inet_pton(AF_INET, tries[t], &v4.sin_addr) == 1) {
      addr = (struct sockaddr *)&v4;
      size = sizeof v4;
    } else if (inet_pton(AF_INET6, tries[t], &v6.sin6_addr) == 1) {
      addr = (struct sockaddr *)&v6;
      size = sizeof v6;
    } else {
      continue;
    }
    int fd = socket(addr->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) continue;
    if (connect(fd, addr, size) == 0) return fd;
    close(fd);
  }
  return -1;
}

/* The proxy cannot connect into the sandbox's network namespace, so for a loopback destination
 * it asks the forwarder that carried the request: "\0PROCMUX-INSIDE ID HOST PORT" (for any
 * other, its first line is "\0PROCMUX-OUTSIDE"). A child
 * connects there and hands the connection back to the proxy as a stream of its own, which
 * starts "PROCMUX-STREAM ID ok" (or "refused": nothing listens there, and the proxy goes on
 * as for any destination). The client's own connection (a, b) is not the child's to hold. */
static void open_inside(char *instruction, const char *proxy, int a, int b) {
  char id[INSTRUCTION_MAX], host[INSTRUCTION_MAX];
  int port;
  /* Widths: INSTRUCTION_MAX - 1. */
  if (sscanf(instruction, "PROCMUX-INSIDE %255s %255s %d", id, host, &port) != 3 || port < 1 || port > 65535) return;
  pid_t pid = fork();
  if (pid != 0) return;
  close(a);
  close(b);
  int local = connect_local(host, port);
  int stream = connect_proxy(proxy);
  if (stream >= 0) {
    char head[2 * INSTRUCTION_MAX];
    int len = snprintf(head, sizeof head, "PROCMUX-STREAM %s %s\r\n\r\n", id, local >= 0 ? "ok" : "refused");
    if (write_all(stream, head, (size_t)len) && local >= 0) relay(local, stream, NULL);
  }
  _exit(0);
}

static int connect_proxy(const char *path) {
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof addr.sun_path) return -1;
  strcpy(addr.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/* The forwarder: one child per connection (reaped by the kernel: SIGCHLD ignored). It holds
 * none of the session's streams, so the session's output ends when the program's does, it
 * ignores the terminal's job-control signals, which reach the program's whole group, and it
 * ends with the program (in a sandbox the pid namespace ends it too; this holds without). */
static void forward(int listener, const char *proxy, pid_t program) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != program) _exit(0);
  static const int ignored[] = {SIGINT, SIGQUIT, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE, SIGCHLD};
  for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) signal(ignored[i], SIG_IGN);
  int null = open("/dev/null", O_RDWR);
  for (int fd = 0; fd < 3; fd++) dup2(null, fd);
  if (null > 2) close(null);
  for (;;) {
    int client = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
    if (client < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      _exit(1);
    }
    pid_t pid = fork();
    if (pid == 0) {
      close(listener);
      int upstream = connect_proxy(proxy);
      if (upstream >= 0 && write_all(upstream, RELAY_HELLO, strlen(RELAY_HELLO))) relay(client, upstream, proxy);
      _exit(0);
    }
    close(client);
  }
}

static int listen_on(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int on = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(fd, 128) < 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

/* Classic BPF for seccomp, spelled out here: musl's headers have no linux/ ones (the kernel's
 * uapi values: linux/filter.h, linux/seccomp.h, linux/audit.h). */
struct insn {
  uint16_t code;
  uint8_t jt, jf;
  uint32_t k;
};
struct fprog {
  unsigned short len;
  struct insn *filter;
};
#define SECCOMP_MODE_FILTER_ 2
#define RET_ALLOW 0x7fff0000u
#define RET_ERRNO 0x00050000u
#define ARCH_X86_64 0xc000003eu
#define ARCH_I386 0x40000003u
#define ARCH_AARCH64 0xc00000b7u
#define ARCH_ARM 0x40000028u
/* struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6]. */
#define OFF_NR 0
#define OFF_ARCH 4
#define OFF_ARG0 16
/* Syscall numbers per audit arch: socket(), and io_uring_setup() (425 everywhere). */
#define NR_IO_URING_SETUP 425
#define X32_BIT 0x40000000u
#define LD(offset) {0x20 /* LD|W|ABS */, 0, 0, (offset)}
#define IF_EQ(value, skip_if_true) {0x15 /* JMP|JEQ|K */, (skip_if_true), 0, (value)}
#define RET(value) {0x06 /* RET|K */, 0, 0, (value)}

/* Refuses, with EPERM, socket() of any family but AF_INET, AF_INET6 and AF_NETLINK (the ones
 * the sandbox's network namespace holds: AF_UNIX reaches the host's path sockets, AF_VSOCK the
 * VM's host and its own agents, whatever the namespace) and io_uring_setup(), on x64 (x32 and
 * i386 too, whose socketcall(SYS_SOCKET) is refused whatever the family: its arguments are in
 * memory) and on arm64 (arm too). The first argument's low 32 bits are read: both arches are
 * little-endian. */
static int refuse_foreign_sockets(void) {
  struct insn code[] = {
      /*  0 */ LD(OFF_ARCH),
      /*  1 */ IF_EQ(ARCH_X86_64, 4),  /* → 6 */
      /*  2 */ IF_EQ(ARCH_I386, 9),    /* → 12 */
      /*  3 */ IF_EQ(ARCH_AARCH64, 13), /* → 17 */
      /*  4 */ IF_EQ(ARCH_ARM, 16),    /* → 21 */
      /*  5 */ RET(RET_ALLOW),
      /*  6 x64 */ LD(OFF_NR),
      /*  7 */ IF_EQ(41, 17),                          /* socket → 25 */
      /*  8 */ IF_EQ(41 | X32_BIT, 16),                /* → 25 */
      /*  9 */ IF_EQ(NR_IO_URING_SETUP, 24),           /* → 34 */
      /* 10 */ IF_EQ(NR_IO_URING_SETUP | X32_BIT, 23), /* → 34 */
      /* 11 */ RET(RET_ALLOW),
      /* 12 i386 */ LD(OFF_NR),
      /* 13 */ IF_EQ(359, 11),               /* socket → 25 */
      /* 14 */ IF_EQ(102, 16),               /* socketcall → 31 */
      /* 15 */ IF_EQ(NR_IO_URING_SETUP, 18), /* → 34 */
      /* 16 */ RET(RET_ALLOW),
      /* 17 arm64 */ LD(OFF_NR),
      /* 18 */ IF_EQ(198, 6),                /* socket → 25 */
      /* 19 */ IF_EQ(NR_IO_URING_SETUP, 14), /* → 34 */
      /* 20 */ RET(RET_ALLOW),
      /* 21 arm */ LD(OFF_NR),
      /* 22 */ IF_EQ(281, 2),                /* socket → 25 */
      /* 23 */ IF_EQ(NR_IO_URING_SETUP, 10), /* → 34 */
      /* 24 */ RET(RET_ALLOW),
      /* 25 socket(domain, ...) */ LD(OFF_ARG0),
      /* 26 */ IF_EQ(AF_INET, 3),    /* → 30 */
      /* 27 */ IF_EQ(AF_INET6, 2),   /* → 30 */
      /* 28 */ IF_EQ(AF_NETLINK, 1), /* → 30 */
      /* 29 */ RET(RET_ERRNO | EPERM),
      /* 30 */ RET(RET_ALLOW),
      /* 31 socketcall(call, args) */ LD(OFF_ARG0),
      /* 32 */ IF_EQ(1, 1), /* SYS_SOCKET → 34 */
      /* 33 */ RET(RET_ALLOW),
      /* 34 */ RET(RET_ERRNO | EPERM),
  };
  struct fprog prog = {.len = sizeof code / sizeof code[0], .filter = code};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) return 0;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER_, &prog) == 0;
}

extern char **environ;

/* The program's environment: each PROGRAM_ENV_PREFIX variable under its own name, the tree
 * marker, nothing else. The strings are environ's own, so nothing is copied. */
static char **program_env(void) {
  size_t n = 0, prefix = strlen(PROGRAM_ENV_PREFIX);
  while (environ[n]) n++;
  char **env = calloc(n + 1, sizeof *env);
  if (!env) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (strncmp(environ[i], PROGRAM_ENV_PREFIX, prefix) == 0)
      env[k++] = environ[i] + prefix;
    else if (strncmp(environ[i], TREE_MARKER, strlen(TREE_MARKER)) == 0)
      env[k++] = environ[i];
  }
  return env;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: sandbox-init PROXY_SOCKET PORT PROGRAM [ARG...]\n");
    return 2;
  }
  int listener = listen_on(atoi(argv[2]));
  if (listener < 0) {
    fprintf(stderr, NOT_LISTENING " (%s); a connection this program makes is refused without being told\n",
            strerror(errno));
  } else {
    pid_t program = getpid();
    pid_t pid = fork();
    if (pid == 0) forward(listener, argv[1], program);
    if (pid < 0)
      fprintf(stderr, NOT_LISTENING " (fork: %s); a connection this program makes is refused without being told\n",
              strerror(errno));
    close(listener);
  }
  if (isatty(0)) {
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
  }
  if (!refuse_foreign_sockets()) {
    fprintf(stderr, "procmux sandbox: %s: cannot install its socket filter (%s); not run\n", argv[3], strerror(errno));
    return 126;
  }
  char **env = program_env();
  if (!env) {
    fprintf(stderr, "procmux sandbox: %s: %s\n", argv[3], strerror(errno));
    return 126;
  }
  /* execvp searches the program's PATH, as the program would. */
  environ = env;
  execvp(argv[3], argv + 3);
  int saved = errno;
  fprintf(stderr, "procmux sandbox: %s: %s\n", argv[3], strerror(saved));
  return saved == ENOENT ? 127 : 126;
}

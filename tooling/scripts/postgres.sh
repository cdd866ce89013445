#!/usr/bin/env bash
# A throwaway PostgreSQL server for the @procmux/store-postgres tests.
#
#   eval "$(tooling/scripts/postgres.sh start)"   # exports PROCMUX_PG_URL
#   tooling/scripts/postgres.sh stop              # stops it and deletes its files
#
# start installs Debian's `postgresql` package when no server binaries are found (as root),
# creates a cluster under $PROCMUX_PG_DIR (default /tmp/procmux-pg), starts it on 127.0.0.1 on
# a free port with a random password, creates the database `procmux`, and prints
# `export PROCMUX_PG_URL=...` on stdout (the URL is also in $PROCMUX_PG_DIR/url). Everything
# else goes to stderr. PostgreSQL refuses to run as root, so as root it runs as `postgres`.
set -euo pipefail

DIR="${PROCMUX_PG_DIR:-/tmp/procmux-pg}"

log() { printf '[postgres.sh] %s\n' "$*" >&2; }

find_bin() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then echo "$dir"; fi
}

is_root() { [ "$(id -u)" = 0 ]; }

as_pg() {
  if is_root; then runuser -u postgres -- "$@"; else "$@"; fi
}

running() {
  local bin
  bin="$(find_bin)"
  [ -n "$bin" ] && [ -f "$DIR/url" ] && as_pg "$bin/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1
}

free_port() {
  node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start() {
  if running; then
    log "already running"
    echo "export PROCMUX_PG_URL=$(cat "$DIR/url")"
    return
  fi
  local bin
  bin="$(find_bin)"
  if [ -z "$bin" ]; then
    if ! is_root; then
      log "no PostgreSQL server found; install Debian's 'postgresql' package (or set PROCMUX_PG_URL to a server of yours)"
      exit 1
    fi
    log "installing Debian's postgresql package"
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql; } >&2
    bin="$(find_bin)"
    if [ -z "$bin" ]; then
      log "postgresql installed but no server binaries under /usr/lib/postgresql/*/bin"
      exit 1
    fi
  fi

  rm -rf "$DIR"
  mkdir -p "$DIR"
  chmod 700 "$DIR"
  if is_root; then chown postgres: "$DIR"; fi

  local password port
  password="$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
  port="$(free_port)"
  printf '%s\n' "$password" >"$DIR/pwfile"
  if is_root; then chown postgres: "$DIR/pwfile"; fi

  log "initdb in $DIR/data ($bin)"
  as_pg "$bin/initdb" -D "$DIR/data" -U postgres -E UTF8 --auth-local=trust --auth-host=scram-sha-256 \
    --pwfile="$DIR/pwfile" >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log" >&2; exit 1; }
  rm -f "$DIR/pwfile"

  log "starting on 127.0.0.1:$port"
  # fsync off: a throwaway test cluster trades durability for speed.
  as_pg "$bin/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $DIR -c fsync=off -c max_connections=200" start >&2 ||
    { cat "$DIR/server.log" >&2; exit 1; }
  as_pg "$bin/createdb" -h "$DIR" -p "$port" -U postgres procmux >&2

  local url="postgres://postgres:$password@127.0.0.1:$port/procmux"
  (umask 077 && printf '%s\n' "$url" >"$DIR/url")
  echo "export PROCMUX_PG_URL=$url"
}

stop() {
  local bin
  bin="$(find_bin)"
  if [ -n "$bin" ] && [ -d "$DIR/data" ]; then
    log "stopping"
    as_pg "$bin/pg_ctl" -D "$DIR/data" -m fast -w -t 60 stop >&2 || true
  fi
  rm -rf "$DIR"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) if running; then cat "$DIR/url"; else exit 1; fi ;;
  *)
    echo "usage: $0 start|stop|url" >&2
    exit 2
    ;;
esac

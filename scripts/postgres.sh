#!/usr/bin/env bash
# PostgreSQL 15 with pgvector, for Engram's PostgreSQL backend and its tests.
#
#   scripts/postgres.sh install          # apt packages + pgvector (idempotent)
#   scripts/postgres.sh start DIR [PORT] # a throwaway cluster in DIR on 127.0.0.1;
#                                        # prints its postgres:// URL
#   scripts/postgres.sh restart DIR [SECS] # an immediate shutdown (as in a crash:
#                                        # every connection cut, recovery on
#                                        # start), down SECS (0), then up again
#   scripts/postgres.sh stop DIR
#
# Debian 12 ships PostgreSQL 15 but no pgvector package, so `install` builds
# pgvector from Debian 13's source package against the installed server. It
# reads that source through a private apt configuration (a temporary
# directory), so the system's apt sources stay untouched.
#
# The throwaway cluster trusts local connections and runs with fsync off: it
# is for tests and benches, not for data you keep (see docs/deployment.md).
set -euo pipefail

PG_VERSION=15
PGBIN=/usr/lib/postgresql/$PG_VERSION/bin
PGVECTOR_VERSION=0.8.0

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Run a server command as an unprivileged user: initdb and postgres refuse root.
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# The first Debian mirror apt already uses (deb822 or one-line sources).
mirror() {
  local m
  m=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n1 || true)
  if [ -z "$m" ]; then
    m=$(grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
      | sed -E 's/^deb (\[[^]]*\] )?//' | awk '{print $1}' | grep -v security | head -n1 || true)
  fi
  echo "${m:-http://deb.debian.org/debian}"
}

install_pgvector() {
  local work apt_opts
  work=$(mktemp -d)
  chmod 755 "$work"  # apt downloads as its own unprivileged user
  mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/parts"
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(mirror) trixie main" \
    > "$work/sources.list"
  if [ "$(id -u)" = 0 ]; then chown -R _apt "$work" 2>/dev/null || true; fi
  apt_opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=$work/parts"
            -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache" -q)
  echo "==> fetching the pgvector source package (Debian 13)"
  apt-get "${apt_opts[@]}" update >/dev/null
  (cd "$work" && apt-get "${apt_opts[@]}" source --download-only "pgvector=$PGVECTOR_VERSION-*" >/dev/null 2>&1 \
    || apt-get "${apt_opts[@]}" source --download-only pgvector >/dev/null)
  local orig
  orig=$(ls "$work"/pgvector_*.orig.tar.* | head -n1)
  mkdir -p "$work/src"
  tar -xf "$orig" -C "$work/src" --strip-components=1
  echo "==> building pgvector $(basename "$orig" | sed -E 's/pgvector_([^.]+\.[^.]+\.[^.]+).*/\1/')"
  make -s -C "$work/src" PG_CONFIG="$PGBIN/pg_config" OPTFLAGS="" >/dev/null
  as_root make -s -C "$work/src" PG_CONFIG="$PGBIN/pg_config" install >/dev/null
  rm -rf "$work"
}

install() {
  if [ ! -x "$PGBIN/postgres" ] || [ ! -x "$PGBIN/pg_config" ] \
    || [ ! -f "$("$PGBIN/pg_config" --includedir-server 2>/dev/null)/postgres.h" ]; then
    echo "==> installing PostgreSQL $PG_VERSION"
    as_root apt-get update -q >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      "postgresql-$PG_VERSION" "postgresql-server-dev-$PG_VERSION" >/dev/null
  fi
  if [ ! -f "$("$PGBIN/pg_config" --sharedir)/extension/vector.control" ]; then
    install_pgvector
  fi
  echo "==> PostgreSQL $PG_VERSION with pgvector is installed"
}

# Start the cluster in DIR on PORT.
serve() {
  as_pg "$PGBIN/pg_ctl" -D "$1/data" -l "$1/server.log" -w -o \
    "-p $2 -k $1 -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=400" \
    start >/dev/null
}

start() {
  local dir=${1:?usage: start DIR [PORT]} port=${2:-55432}
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
  as_pg "$PGBIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >/dev/null
  serve "$dir" "$port"
  echo "postgres://postgres@127.0.0.1:$port/postgres"
}

restart() {
  local dir=${1:?usage: restart DIR [SECS]} port
  dir=$(cd "$dir" && pwd)
  port=$(grep -oE '"-p" "[0-9]+"' "$dir/data/postmaster.opts" | grep -oE '[0-9]+')
  as_pg "$PGBIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
  sleep "${2:-0}"
  serve "$dir" "$port"
}

stop() {
  local dir=${1:?usage: stop DIR}
  if [ -d "$dir/data" ]; then
    as_pg "$PGBIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  install) install ;;
  start) shift; start "$@" ;;
  restart) shift; restart "$@" ;;
  stop) shift; stop "$@" ;;
  *) echo "usage: $0 install | start DIR [PORT] | restart DIR | stop DIR" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Runs a command with a throw-away PostgreSQL server, for the repository
# tests: installs Debian's postgresql when it is missing, creates a cluster
# in a temporary folder as an unprivileged user, listening on a Unix socket
# in that folder only, exports CUBEVIEW_TEST_POSTGRES (a superuser URL)
# and CUBEVIEW_REQUIRE_POSTGRES, runs "$@", then stops the server and
# removes the folder. Never uses a server that happens to be running.
#
#   scripts/with-postgres.sh go test ./repo/...
set -u
pgbin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
bin=$(pgbin)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null; then sudo="sudo"; else
      echo "cubeview: PostgreSQL is missing (install Debian's postgresql as root)" >&2; exit 1
    fi
  fi
  echo "cubeview: installing postgresql" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y -qq postgresql >/dev/null 2>&1 || {
    $sudo apt-get update -qq >/dev/null 2>&1
    $sudo apt-get install -y -qq postgresql >/dev/null || { echo "cubeview: apt-get install postgresql failed" >&2; exit 1; }
  }
  bin=$(pgbin)
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/cubeview-pg.XXXXXX") || exit 1
# The server refuses to run as root: run it as nobody then.
as=()
if [ "$(id -u)" = 0 ]; then
  chown nobody "$dir"
  as=(runuser -u nobody --)
fi
stop() {
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
  rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM
if ! "${as[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1; then
  echo "cubeview: initdb failed:" >&2; cat "$dir/initdb.log" >&2; exit 1
fi
if ! "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-c listen_addresses='' -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null; then
  echo "cubeview: the PostgreSQL test server did not start:" >&2; cat "$dir/server.log" >&2; exit 1
fi
export CUBEVIEW_TEST_POSTGRES="postgres://postgres@/postgres?host=$dir"
export CUBEVIEW_REQUIRE_POSTGRES=1
"$@"

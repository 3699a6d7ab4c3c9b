#!/usr/bin/env bash
# llama.cpp's llama-server on a CPU, for tests against a real OpenAI-compatible server.
#
#   scripts/llama-server.sh install                 unpack it into target/llama-server/
#   scripts/llama-server.sh start MODEL.gguf [ARGS] start it on a free loopback port with --metrics,
#                                                   wait for /health; prints BASE_URL=, PID=, LOG=
#   scripts/llama-server.sh stop                    stop it by its PID and check that it is gone
#   scripts/llama-server.sh run [ARGS]              run llama-server in the foreground with ARGS
#                                                   only (a sweep's -Dserve.cmd starts and stops it)
#
# Debian 12 has no llama.cpp package and Debian's packages need a newer C library, so they are
# unpacked (dpkg -x) into a folder and started through the packaged dynamic loader. The packages
# come from ../shared/debs/llama-server/ (checked against its SHA256SUMS) when that folder exists,
# else they are downloaded from Debian's "forky" suite with a private sources list.
#
# Environment: LLAMA_DIR (default target/llama-server), LLAMA_RUN_DIR (pid, port and log files of
# one server; default LLAMA_DIR), LLAMA_DEBS (default ../shared/debs/llama-server),
# LLAMA_PORT (default: a free port), LLAMA_ALIAS (default tiny-llama), LLAMA_THREADS (default 2),
# LLAMA_CTX (default 8192), LLAMA_SLOTS (default 8), LLAMA_HEALTH_TIMEOUT (seconds, default 60).
set -euo pipefail

ROOT_DIR="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${LLAMA_DIR:-$ROOT_DIR/target/llama-server}"
RUN="${LLAMA_RUN_DIR:-$DIR}"   # where a started server keeps server.pid, server.port, server.log
DEBS="${LLAMA_DEBS:-$ROOT_DIR/../shared/debs/llama-server}"
PACKAGES=(llama.cpp-tools libllama0 libggml0 libc6 libstdc++6 libgcc-s1 libgomp1 libssl3t64 zlib1g libzstd1)
FORKY_MIRROR="${LLAMA_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

log() { echo "llama-server.sh: $*" >&2; }
die() { log "$*"; exit 1; }

install() {
  local sysroot="$DIR/root" marker="$DIR/root/.installed"
  if [[ -x "$sysroot/usr/bin/llama-server" && -f "$marker" ]]; then
    log "already installed in $sysroot ($(cat "$marker"))"
    link_backends
    return
  fi
  rm -rf "$sysroot" "$DIR/debs"
  mkdir -p "$DIR/debs" "$sysroot"
  local source
  if [[ -f "$DEBS/SHA256SUMS" ]]; then
    source="$(cd "$DEBS" && pwd)"
    log "packages from $source, checking SHA256SUMS"
    (cd "$DEBS" && sha256sum --quiet -c SHA256SUMS) || die "checksum mismatch in $source"
    cp "$DEBS"/*.deb "$DIR/debs/"
  else
    source="debian forky ($FORKY_MIRROR)"
    log "$DEBS not found: downloading ${PACKAGES[*]} from $source"
    download_forky
  fi
  local deb
  for deb in "$DIR"/debs/*.deb; do
    dpkg -x "$deb" "$sysroot"
  done
  [[ -x "$sysroot/usr/bin/llama-server" ]] || die "no usr/bin/llama-server in the unpacked packages"
  link_backends
  local version
  version="$(run_server --version 2>&1 | grep -m1 '^version' || true)"
  [[ -n "$version" ]] || { run_server --version >&2 || true; die "the unpacked llama-server does not start"; }
  echo "$version, from $source" >"$marker"
  log "installed: $version in $sysroot"
}

# A private apt configuration for forky: nothing of the system's apt state is touched.
download_forky() {
  local apt="$DIR/apt"
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
  echo "deb $FORKY_MIRROR forky main" >"$apt/sources.list"
  local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
              -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
              -o "APT::Architecture=amd64" -o "Debug::NoLocking=1")
  apt-get "${opts[@]}" update >&2 || die "apt-get update for forky failed"
  (cd "$DIR/debs" && apt-get "${opts[@]}" download "${PACKAGES[@]}" >&2) || die "apt-get download failed"
}

# ggml looks for its CPU backends in the directory the server is started from.
link_backends() {
  local lib="$DIR/root/usr/lib/x86_64-linux-gnu" run="$DIR/run" f
  mkdir -p "$run"
  for f in "$lib"/ggml/backends0/libggml-cpu-*.so; do
    [[ -e "$f" ]] || die "no ggml CPU backends under $lib/ggml/backends0"
    ln -sf "$f" "$run/"
  done
}

run_server() {
  local lib="$DIR/root/usr/lib/x86_64-linux-gnu"
  cd "$DIR/run" && exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib:$lib/llama" \
    "$DIR/root/usr/bin/llama-server" "$@"
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

free_port() {
  local p i
  for i in $(seq 1 50); do
    p=$((20000 + RANDOM % 30000))
    if port_free "$p"; then echo "$p"; return; fi
  done
  die "no free port found"
}

# HTTP status of GET /health, or 000 when nothing answers (bash only: no curl needed).
health() {
  local status
  status="$( (exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
    printf 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
    timeout 2 head -n1 <&3) 2>/dev/null | awk '{print $2}')" || true
  echo "${status:-000}"
}

start() {
  [[ $# -ge 1 ]] || die "usage: $0 start MODEL.gguf [llama-server args...]"
  local model="$1"; shift
  [[ -f "$model" ]] || die "no model file $model"
  model="$(cd "$(dirname "$model")" && pwd)/$(basename "$model")"
  [[ -x "$DIR/root/usr/bin/llama-server" ]] || install
  stop_quiet
  mkdir -p "$RUN"
  local port="${LLAMA_PORT:-$(free_port)}" logf="$RUN/server.log"
  : >"$logf"
  ( run_server -m "$model" --alias "${LLAMA_ALIAS:-tiny-llama}" --host 127.0.0.1 --port "$port" \
      -t "${LLAMA_THREADS:-2}" -c "${LLAMA_CTX:-8192}" -np "${LLAMA_SLOTS:-8}" --metrics "$@" ) \
      >>"$logf" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$RUN/server.pid"
  echo "$port" >"$RUN/server.port"
  local deadline=$((SECONDS + ${LLAMA_HEALTH_TIMEOUT:-60}))
  while true; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$RUN/server.pid"
      tail -n 40 "$logf" >&2
      die "llama-server exited during start (log: $logf)"
    fi
    [[ "$(health "$port")" == 200 ]] && break
    if (( SECONDS >= deadline )); then
      tail -n 40 "$logf" >&2
      stop_quiet
      die "llama-server not healthy within ${LLAMA_HEALTH_TIMEOUT:-60} s (log: $logf)"
    fi
    sleep 0.1
  done
  log "healthy on port $port, pid $pid"
  echo "BASE_URL=http://127.0.0.1:$port"
  echo "PID=$pid"
  echo "LOG=$logf"
}

stop_quiet() {
  local pidf="$RUN/server.pid" pid i
  [[ -f "$pidf" ]] || return 0
  pid="$(cat "$pidf")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      log "pid $pid still running after 5 s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      for i in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    kill -0 "$pid" 2>/dev/null && die "pid $pid does not stop"
    log "stopped pid $pid"
  fi
  rm -f "$pidf"
}

case "${1:-}" in
  install) install ;;
  start) shift; start "$@" ;;
  stop) stop_quiet ;;
  run) shift; link_backends; run_server "$@" ;;
  *) die "usage: $0 install | start MODEL.gguf [args] | stop | run [args]" ;;
esac

#!/usr/bin/env bash
# Runs a command with no way out of the local host:
#   scripts/offline.sh pnpm test:all
#
# 1. A loopback-only network namespace: `unshare --net` as root (CI), else an unprivileged user
#    namespace (`unshare --user --map-root-user --net`, most Linux dev machines), then
#    `ip link set lo up`. Inside it `lo` is the only interface, so a connect to any other address
#    (restate-server's telemetry and release check, Chromium's background requests, an npm
#    package phoning home) fails at once with ENETUNREACH instead of leaving the machine.
# 2. The loopback guard (scripts/loopback-guard.cjs) preloaded into every Node process through
#    NODE_OPTIONS: a non-loopback connect, UDP send or DNS query throws ERR_TINY_NON_LOOPBACK and is
#    logged; the run fails when anything was logged, even if the caller swallowed the error.
# 3. The programs' own off switches (telemetry, update checks) exported for every child.
#
# Both layers are checked before the command runs (a public address must be refused by the guard
# and unreachable in the namespace). When no namespace can be made (macOS, containers without
# user namespaces) it warns and runs with the guard alone, unless TINY_REQUIRE_NETNS=1 (CI), which
# makes that an error. Do not run `pnpm install` through it: installing needs the registry.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
self="$root/scripts/offline.sh"
guard="$root/scripts/loopback-guard.cjs"

if [ "${1:-}" = "--inside" ]; then
  shift
  ip link set lo up
  others=$(ip -o link show | awk -F': ' '$2 != "lo" { print $2 }')
  if [ -n "$others" ]; then
    echo "offline: the namespace has interfaces besides lo: $others" >&2
    exit 70
  fi
  export TINY_NETNS=1
else
  if [ "$#" -eq 0 ]; then
    echo "usage: scripts/offline.sh <command> [args...]" >&2
    exit 64
  fi
  # Off switches, for the namespace-less fallback and as a second line inside it.
  export RESTATE_DISABLE_TELEMETRY=true # restate-server: telemetry (its release check has no switch)
  export DO_NOT_TRACK=1                  # restate-server and others honouring the convention
  export TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1
  export npm_config_update_notifier=false NO_UPDATE_NOTIFIER=1
  export OPENAI_AGENTS_DISABLE_TRACING=1 LANGCHAIN_TRACING_V2=false LANGSMITH_TRACING=false
  export TINY_LOOPBACK_GUARD_LOG="${TINY_LOOPBACK_GUARD_LOG:-$(mktemp -t tiny-loopback-guard.XXXXXX)}"
  : >"$TINY_LOOPBACK_GUARD_LOG"
  case " ${NODE_OPTIONS:-} " in
  *"$guard"*) ;;
  *) export NODE_OPTIONS="--require=$guard${NODE_OPTIONS:+ $NODE_OPTIONS}" ;;
  esac

  if [ "${TINY_NETNS:-}" != 1 ]; then
    if [ "$(id -u)" = 0 ] && unshare --net true 2>/dev/null; then
      exec unshare --net -- bash "$self" --inside "$@"
    elif unshare --user --map-root-user --net true 2>/dev/null; then
      exec unshare --user --map-root-user --net -- bash "$self" --inside "$@"
    elif [ "${TINY_REQUIRE_NETNS:-}" = 1 ]; then
      echo "offline: cannot create a network namespace (need root or unprivileged user namespaces); TINY_REQUIRE_NETNS=1 forbids running without one" >&2
      exit 70
    else
      echo "offline: WARNING no network namespace available; only Node processes are guarded (restate-server and Chromium are not isolated)" >&2
    fi
  fi
fi

# Self-check: both layers must refuse a public address (192.0.2.1 is TEST-NET-1, never routed).
probe='const s=require("node:net").connect(443,"192.0.2.1");s.on("error",(e)=>{console.log(e.code);process.exit(0)});s.on("connect",()=>{console.log("CONNECTED");process.exit(0)});setTimeout(()=>{console.log("TIMEOUT");process.exit(0)},3000)'
guarded=$(TINY_LOOPBACK_GUARD_LOG= node -e "try{$probe}catch(e){console.log(e.code)}" 2>/dev/null)
if [ "$guarded" != "ERR_TINY_NON_LOOPBACK" ]; then
  echo "offline: the loopback guard did not refuse 192.0.2.1 (got: $guarded)" >&2
  exit 70
fi
if [ "${TINY_NETNS:-}" = 1 ]; then
  bare=$(NODE_OPTIONS= node -e "$probe")
  if [ "$bare" != "ENETUNREACH" ]; then
    echo "offline: 192.0.2.1 was not unreachable in the namespace (got: $bare)" >&2
    exit 70
  fi
  echo "offline: loopback-only namespace and loopback guard active" >&2
fi

status=0
"$@" || status=$?
if [ -s "$TINY_LOOPBACK_GUARD_LOG" ]; then
  echo "offline: FAIL: a process tried to reach beyond loopback:" >&2
  sort -u "$TINY_LOOPBACK_GUARD_LOG" >&2
  [ "$status" -ne 0 ] || status=71
fi
exit "$status"

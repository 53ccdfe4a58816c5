#!/usr/bin/env bash
# run-bmv2.sh: run the balancer's P4 program on BMv2 (simple_switch_grpc).
#
#   bmv2/run-bmv2.sh [options] PORT=IFACE [PORT=IFACE ...]
#
# PORT is the data-plane port number the site configuration uses (platform
# bmv2: lane l of front-panel port p is p*10+l, a whole port p is p*10; e.g.
# 20=veth-l1lan for P2, 41=eth3 for P41), IFACE the Linux interface it runs
# on. The switch starts with the committed p4src/build/v1model/balancer.json
# and the CPU port the program is compiled for (255); the balancer daemon
# pushes the pipeline (P4Info + the same JSON) and every entry when it
# connects, so nothing else needs configuring. BMv2 serves no gNMI: run the
# daemon with --switch-gnmi "" (port status then comes only from keep-alives).
#
# Options:
#   --grpc ADDR          P4Runtime address (default 127.0.0.1:9559; or
#                        unix:/path/to/p4rt.sock)
#   --device-id N        P4Runtime device id (default 1, the daemon's default)
#   --netns NAME         run inside network namespace NAME (ip netns exec)
#   --thrift-port N      BMv2's Thrift port for simple_switch_CLI (default 9090)
#   --log FILE           log to FILE (default: the console)
#   --log-level LEVEL    trace, debug, info, warn, error, off (default warn:
#                        per-packet logging costs most of BMv2's throughput)
#   --no-p4              start without a program (the daemon pushes it)
#   --json FILE          another compiled program (default the committed one)
#   --print              print the command instead of running it
#
# The switch runs in the foreground until stopped (Ctrl-C or SIGTERM to its
# PID). Example, then the daemon in another terminal:
#
#   sudo bmv2/run-bmv2.sh 20=veth-l1lan 10=veth-l1wan 40=veth-f1lan 30=veth-f1wan
#   balancer daemon --config site.yaml --state-dir /tmp/bal --switch 127.0.0.1:9559 --switch-gnmi ""
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
json="$(cd "$here/.." && pwd)/p4src/build/v1model/balancer.json"
grpc="127.0.0.1:9559"
device_id=1
netns=""
thrift_port=9090
log=""
log_level="warn"
no_p4=0
print=0
cpu_port=255 # p4src/shared/defines.p4 (v1model), behavioral-model issue 831

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; }
die() { echo "run-bmv2.sh: $*" >&2; exit 2; }

ports=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --grpc) grpc="${2:?--grpc needs an address}"; shift 2 ;;
    --device-id) device_id="${2:?--device-id needs a number}"; shift 2 ;;
    --netns) netns="${2:?--netns needs a name}"; shift 2 ;;
    --thrift-port) thrift_port="${2:?--thrift-port needs a number}"; shift 2 ;;
    --log) log="${2:?--log needs a file}"; shift 2 ;;
    --log-level) log_level="${2:?--log-level needs a level}"; shift 2 ;;
    --no-p4) no_p4=1; shift ;;
    --json) json="${2:?--json needs a file}"; shift 2 ;;
    --print) print=1; shift ;;
    --) shift; ports+=("$@"); break ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) ports+=("$1"); shift ;;
  esac
done
[ "${#ports[@]}" -gt 0 ] || die "no ports: give PORT=IFACE arguments (see --help)"

args=(--device-id "$device_id" --log-level "$log_level")
# A BMv2 built without Thrift refuses --thrift-port (and has no
# simple_switch_CLI to serve): give it only where the build has it.
if simple_switch_grpc --help 2>&1 | grep -q -- '--thrift-port'; then
  args+=(--thrift-port "$thrift_port")
fi
if [ -n "$log" ]; then args+=(--log-file "$log" --log-flush); else args+=(--log-console); fi
declare -A seen=()
for p in "${ports[@]}"; do
  num="${p%%[=@]*}"
  ifc="${p#*[=@]}"
  [[ "$p" == *[=@]* && "$num" =~ ^[0-9]+$ && -n "$ifc" ]] || die "$p: want PORT=IFACE, e.g. 20=veth0"
  [ "$num" -lt 511 ] || die "$p: port $num does not fit the program's 9-bit ports (511 is the drop port)"
  [ "$num" -ne "$cpu_port" ] || die "$p: port $cpu_port is the CPU port"
  [ -z "${seen[$num]:-}" ] || die "$p: port $num given twice"
  seen[$num]=1
  args+=(-i "$num@$ifc")
done
if [ "$no_p4" = 1 ]; then
  args+=(--no-p4)
else
  [ -f "$json" ] || die "$json not found (make p4 builds it)"
  args+=("$json")
fi
args+=(-- --grpc-server-addr "$grpc" --cpu-port "$cpu_port")

cmd=(simple_switch_grpc "${args[@]}")
[ -z "$netns" ] || cmd=(ip netns exec "$netns" "${cmd[@]}")
if [ "$print" = 1 ]; then
  printf '%q ' "${cmd[@]}"; echo
  exit 0
fi
command -v simple_switch_grpc >/dev/null || die "simple_switch_grpc not found: build BMv2 with PI (see bmv2/README.md)"
exec "${cmd[@]}"

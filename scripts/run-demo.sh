#!/usr/bin/env bash
# make run: the software switch and the daemon with examples/site.yaml.
# The switch has in-memory ports: every filter group is a transparent
# "filter" (keep-alives pass) and random sessions flow into every link.
# Stop with Ctrl-C; both processes end.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"
CONFIG="${CONFIG:-examples/site.yaml}"
RUN="${RUN_DIR:-run}"
mkdir -p "$RUN" bin
go build -o bin/balancer ./cmd/balancer

bin/balancer sim --from-config "$CONFIG" --demo-traffic 500 --control 127.0.0.1:9350 \
  --p4rt 127.0.0.1:9559 --gnmi 127.0.0.1:9339 >"$RUN/sim.log" 2>&1 &
SIM=$!
trap 'kill "$SIM" 2>/dev/null; wait "$SIM" 2>/dev/null || true' EXIT

cat <<MSG
software switch: P4Runtime 127.0.0.1:9559, gNMI 127.0.0.1:9339 (log: $RUN/sim.log)
daemon: management socket $RUN/balancer.sock, telemetry gNMI 127.0.0.1:9340,
        metrics http://127.0.0.1:9341/metrics, state in $RUN/state

In another terminal:
  export BALANCER_SOCKET=$PWD/$RUN/balancer.sock
  bin/balancer status
  bin/balancer counters
  bin/balancer locate 100.64.1.10 198.51.100.7 tcp
  bin/balancer bypass on --group F2
  curl -X POST '127.0.0.1:9350/loops/120:110?state=dead'   # filter F2 stops answering
  curl -X POST '127.0.0.1:9350/loops/120:110?state=ok'
MSG

bin/balancer daemon --config "$CONFIG" --state-dir "$RUN/state" --socket "$RUN/balancer.sock" \
  --switch 127.0.0.1:9559 --switch-gnmi 127.0.0.1:9339 \
  --telemetry 127.0.0.1:9340 --metrics 127.0.0.1:9341

#!/usr/bin/env bash
# make run: the software switch and the daemon with examples/site.yaml.
# The switch has in-memory ports: every filter group is a transparent
# "filter" (keep-alives pass) and random sessions flow into every link.
#
#   scripts/run-demo.sh          switch (in the background) + daemon (here);
#                                Ctrl-C ends both
#   scripts/run-demo.sh daemon   the daemon alone, against the running switch
#                                (restart it after stopping it)
#   scripts/run-demo.sh stop     end the switch
#
# When the daemon ends any other way than by Ctrl-C (killed, crashed), the
# switch keeps running, as a real switch would: start the daemon again with
# 'scripts/run-demo.sh daemon'.
#
# Ports (all on 127.0.0.1), overridable from the environment:
#   P4RT_PORT=9559 SWITCH_GNMI_PORT=9339 CONTROL_PORT=9350
#   TELEMETRY_PORT=9340 METRICS_PORT=9341
# and CONFIG (examples/site.yaml), RUN_DIR (run). The switch's ports are
# saved in $RUN_DIR/ports.env: 'daemon' uses the ones the switch runs with.
# Ctrl-C is the normal way to stop: it exits 0 (make run too).
# The daemon's state ($RUN_DIR/state) is kept between runs: a second run
# resumes its last revision, not CONFIG, and says so; FRESH=1 removes it
# first and starts from CONFIG.
set -euo pipefail
cd "$(dirname "$0")/.."
# On a terminal, run as a job of its own that holds the terminal: Ctrl-C
# then reaches this script (which ends the demo and exits 0) and what it
# started, but not a make that started it (make dies of SIGINT, exit 130,
# whatever its recipe does), nor a pipe's reader (make run 2>&1 | tee
# run.log). Bash hands the terminal to a job through its fd 2, so while
# the output goes to a pipe fd 2 is the terminal here, and the job gets
# the output as given (fd 3).
if [[ -t 0 && "${1:-all}" != stop && -z "${RUN_DEMO_JOB:-}" ]] && { [[ -t 2 ]] || { : >/dev/tty; } 2>/dev/null; }; then
	export RUN_DEMO_JOB=1
	exec 3>&2
	[[ -t 2 ]] || exec 2>/dev/tty
	set -m
	"$0" "$@" 2>&3 3>&- &
	fg %% >/dev/null
	exit $?
fi
export PATH="$PATH:/usr/local/go/bin"
CONFIG="${CONFIG:-examples/site.yaml}"
RUN="${RUN_DIR:-run}"
if [[ "${1:-all}" == daemon && -f "$RUN/ports.env" ]]; then
	# shellcheck disable=SC1091
	source "$RUN/ports.env"
fi
P4RT="127.0.0.1:${P4RT_PORT:-9559}"
SWGNMI="127.0.0.1:${SWITCH_GNMI_PORT:-9339}"
CONTROL="127.0.0.1:${CONTROL_PORT:-9350}"
TELEMETRY="127.0.0.1:${TELEMETRY_PORT:-9340}"
METRICS="127.0.0.1:${METRICS_PORT:-9341}"
SIMPID="$RUN/sim.pid"
mkdir -p "$RUN" bin

# bin/balancer with the source revision and build time for 'balancer
# version' (make passes the same flags in BALANCER_LDFLAGS).
build() {
	local bi=github.com/dpi-balancer/balancer/internal/buildinfo ldflags="${BALANCER_LDFLAGS:-}"
	if [[ -z "$ldflags" ]] && git rev-parse HEAD >/dev/null 2>&1; then
		local modified=false
		[[ -n "$(git status --porcelain --untracked-files=no)" ]] && modified=true
		ldflags="-X $bi.version=$(git describe --tags --always --dirty) -X $bi.revision=$(git rev-parse HEAD)"
		ldflags+=" -X $bi.modified=$modified -X $bi.buildTime=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	fi
	go build -ldflags "$ldflags" -o bin/balancer ./cmd/balancer
}

# A state directory from an earlier run is resumed (its running revision,
# not $CONFIG): say so, and how to start from $CONFIG. FRESH=1 does.
state_notice() {
	if [[ "${FRESH:-}" == 1 && -d "$RUN/state" ]]; then
		rm -rf "$RUN/state"
		echo "FRESH=1: the saved state in $RUN/state was removed; starting from $CONFIG"
	elif [[ -n "$(ls -A "$RUN/state" 2>/dev/null)" ]]; then
		echo "RESUMING the saved state in $RUN/state: the daemon runs its last revision (and history), not $CONFIG."
		echo "  To start fresh from $CONFIG: FRESH=1 make run  (or rm -rf $RUN/state)"
	fi
}

sim_running() { [[ -f "$SIMPID" ]] && kill -0 "$(cat "$SIMPID")" 2>/dev/null; }

stop_sim() {
	if sim_running; then
		kill "$(cat "$SIMPID")" 2>/dev/null || true
		echo "software switch stopped"
	fi
	rm -f "$SIMPID" "$RUN/ports.env"
}

start_sim() {
	if sim_running; then
		echo "software switch already running (pid $(cat "$SIMPID"))"
		return
	fi
	bin/balancer sim --from-config "$CONFIG" --demo-traffic 500 --control "$CONTROL" \
		--p4rt "$P4RT" --gnmi "$SWGNMI" >"$RUN/sim.log" 2>&1 &
	echo $! >"$SIMPID"
	# Wait until it serves: a switch that could not start (a port taken)
	# must not leave the daemon to reach whatever else listens there.
	local i
	for ((i = 0; i < 600; i++)); do
		grep -q 'software switch serving' "$RUN/sim.log" 2>/dev/null && break
		if ! sim_running; then
			rm -f "$SIMPID"
			echo "the software switch did not start ($RUN/sim.log):" >&2
			tail -n 3 "$RUN/sim.log" >&2
			echo "when a port is taken, move it: P4RT_PORT=19559 SWITCH_GNMI_PORT=19339 CONTROL_PORT=19350 TELEMETRY_PORT=19340 METRICS_PORT=19341 make run" >&2
			exit 1
		fi
		sleep 0.1
	done
	# What 'scripts/run-demo.sh daemon' needs to find this switch again.
	cat >"$RUN/ports.env" <<ENV
P4RT_PORT=${P4RT##*:}
SWITCH_GNMI_PORT=${SWGNMI##*:}
CONTROL_PORT=${CONTROL##*:}
TELEMETRY_PORT=${TELEMETRY##*:}
METRICS_PORT=${METRICS##*:}
ENV
}

run_daemon() {
	local rc=0
	bin/balancer daemon --config "$CONFIG" --state-dir "$RUN/state" --socket "$RUN/balancer.sock" \
		--switch "$P4RT" --switch-gnmi "$SWGNMI" \
		--telemetry "$TELEMETRY" --metrics "$METRICS" || rc=$?
	if sim_running; then
		echo "the daemon ended (exit $rc); the software switch keeps running (pid $(cat "$SIMPID")):"
		echo "  restart the daemon: scripts/run-demo.sh daemon    stop the switch: scripts/run-demo.sh stop"
	fi
	return "$rc"
}

case "${1:-all}" in
stop)
	stop_sim
	;;
daemon)
	if ! sim_running; then
		echo "the software switch is not running: start everything with 'make run'" >&2
		exit 1
	fi
	[[ -x bin/balancer ]] || build
	state_notice
	run_daemon || { rc=$?; [[ $rc -eq 130 ]] || exit "$rc"; }
	;;
all)
	build
	state_notice
	start_sim
	trap 'stop_sim; exit 0' INT TERM
	sock="\$PWD/$RUN/balancer.sock"
	[[ "$RUN" == /* ]] && sock="$RUN/balancer.sock"
	cat <<MSG
software switch: P4Runtime $P4RT, gNMI $SWGNMI (log: $RUN/sim.log, pid file $SIMPID)
daemon: management socket $RUN/balancer.sock, telemetry gNMI $TELEMETRY,
        metrics http://$METRICS/metrics, state in $RUN/state

In another terminal, from $PWD:
  export BALANCER_SOCKET=$sock PATH=\$PWD/bin:\$PATH CONTROL_PORT=${CONTROL##*:}
  balancer status
  balancer counters
  balancer locate 100.64.1.10 198.51.100.7 tcp
  curl -X POST "http://127.0.0.1:\${CONTROL_PORT:-9350}/loops/120:110?state=dead"   # filter F2 stops answering
  curl -X POST "http://127.0.0.1:\${CONTROL_PORT:-9350}/loops/120:110?state=ok"
MSG
	run_daemon || { rc=$?; [[ $rc -eq 130 ]] || exit "$rc"; }
	;;
*)
	echo "usage: scripts/run-demo.sh [all|daemon|stop]" >&2
	exit 2
	;;
esac

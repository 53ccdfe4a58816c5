#!/usr/bin/env bash
# Runs every benchmark once (one iteration each: its bed must reach its
# start and its body run), so that a benchmark cannot rot unseen; make
# bench gives the figures. Prints each package's result, every failure
# with its messages, and one closing line counting the benchmarks run.
# The whole log is kept in $GOTEST_LOG.
# Usage: scripts/benchonce.sh [packages]
set -uo pipefail
log=${GOTEST_LOG:-$(mktemp -t bench-once.XXXXXX.log)}
go test -count=1 -run '^$' -bench . -benchtime 1x -timeout 20m "${@:-./...}" >"$log" 2>&1
rc=$?
grep -E '^(ok|FAIL|panic:)|^--- FAIL|^    [a-z_]+_test\.go:[0-9]+:|Error:|Error Trace:|Messages:' "$log"
# A benchmark's result line: "BenchmarkX-2   1   123 ns/op ...".
ran=$(grep -cE '^Benchmark[^[:space:]]*[[:space:]]+[0-9]+[[:space:]]' "$log")
failed=$(grep -cE '^--- FAIL: Benchmark' "$log")
echo "full log: $log"
echo "bench-once: $ran passed, $failed failed"
exit $rc

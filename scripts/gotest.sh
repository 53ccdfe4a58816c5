#!/usr/bin/env bash
# Runs go test verbosely into a log and prints what an operator of the test
# run needs: each package's result, every failed test with its messages and
# every skipped test with its reason (a test that needs root, BMv2 or a
# tool says why it did not run). The whole log is kept in $GOTEST_LOG.
# Usage: scripts/gotest.sh [go test flags and packages]
set -uo pipefail
log=${GOTEST_LOG:-$(mktemp -t gotest.XXXXXX.log)}
go test -v "$@" >"$log" 2>&1
rc=$?
awk '
  # go test -v prints a test'"'"'s messages under its "=== RUN/CONT/NAME" header,
  # before its "--- PASS/FAIL/SKIP" line: keep them per test until then.
  /^=== (RUN|CONT|NAME|PAUSE) / { cur = $3; next }
  /^ *--- (PASS|FAIL|SKIP): / {
    name = $3
    if ($2 != "PASS:") { print; printf "%s", buf[name] }
    delete buf[name]; cur = ""; next
  }
  # "ok  <TAB>pkg", "FAIL<TAB>pkg", "?   <TAB>pkg [no test files]":
  # go test separates the package with a tab.
  /^(ok|FAIL|\?)[ \t]/ || /^FAIL$/ || /^panic:/ { print; next }
  /^    / && cur != "" { buf[cur] = buf[cur] $0 "\n" }
' "$log"
skipped=$(grep -c -- '--- SKIP:' "$log")
failed=$(grep -c -- '--- FAIL:' "$log")
passed=$(grep -c -- '--- PASS:' "$log")
echo "full log: $log (counts include subtests)"
echo "go-test: $passed passed, $failed failed, $skipped skipped"
# Every package that failed (tests, build or setup), by name.
failing=$(awk -F'\t' '/^FAIL\t/ { print $2 }' "$log" | sort -u | tr '\n' ' ')
if [ -n "$failing" ]; then
  echo "failing packages: $failing"
elif [ "$rc" -ne 0 ]; then
  echo "go test exited $rc (no package reported FAIL: see the full log)"
fi
exit $rc

# Inline DPI traffic balancer: build, test, P4 compile.
SHELL    := /bin/bash
GO        ?= go
P4C_BM2   ?= p4c-bm2-ss
P4TEST    ?= p4test
BF_P4C    ?= bf-p4c
# TNA architecture headers (tna.p4) for the type check and for P4Testgen:
# those installed beside bf-p4c (<prefix>/share/p4c/p4include, as an
# installed p4c with the Tofino back end lays them out), else give
# TOFINO_P4INCLUDE=DIR (e.g. barefootnetworks/Open-Tofino's).
BF_P4C_DIR := $(dir $(shell command -v $(BF_P4C) 2>/dev/null))
TOFINO_P4INCLUDE ?= $(abspath $(BF_P4C_DIR)../share/p4c/p4include)
# P4Testgen of the same p4c, beside bf-p4c when it was built with it.
P4TESTGEN ?= $(if $(wildcard $(BF_P4C_DIR)p4testgen),$(BF_P4C_DIR)p4testgen,p4testgen)

V1_OUT := p4src/build/v1model

.PHONY: run all build test test-interop test-short bench bench-once vet fmt p4 p4-check p4-tna p4-tna-verdict p4-tna-found p4-tna-check p4-tna-typecheck p4-testgen p4-testgen-v1model p4-testgen-tofino p4-testgen-tofino-verdict p4-testgen-tofino-sessions

all: build test

# The build's stamp for 'balancer version' (internal/buildinfo): the
# source revision as git describes it, the commit, whether the tree had
# uncommitted changes, and the build time. Outside a git checkout they
# are left empty and the binary says what the Go toolchain recorded.
BUILDINFO := github.com/dpi-balancer/balancer/internal/buildinfo
GIT_DESCRIBE := $(shell git describe --tags --always --dirty 2>/dev/null)
GIT_COMMIT := $(shell git rev-parse HEAD 2>/dev/null)
GIT_MODIFIED := $(shell test -n "$$(git status --porcelain --untracked-files=no 2>/dev/null)" && echo true || echo false)
BUILD_TIME := $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -X $(BUILDINFO).version=$(GIT_DESCRIBE) -X $(BUILDINFO).revision=$(GIT_COMMIT) \
  -X $(BUILDINFO).modified=$(GIT_MODIFIED) -X $(BUILDINFO).buildTime=$(BUILD_TIME)
export BALANCER_LDFLAGS := $(LDFLAGS)

# The daemon on the built-in software switch with examples/site.yaml.
run:
	./scripts/run-demo.sh

# Every package, and bin/balancer with the build stamp.
build:
	$(GO) build ./...
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/balancer ./cmd/balancer

# Every test: unit, golden, and (as root with BMv2 installed) packet tests.
# Every part runs even when an earlier one failed; the target fails when
# any did and names them. tests/e2e runs after the rest, alone: it times
# failovers with filter emulators in the test process, and beside other
# packages' tests on a small machine those emulators starve past the
# scenarios' 60-150 ms detection times, so the data plane rightly judges
# a starved filter dead.
test:
	@failed=""; \
	$(GO) vet ./... || failed="$$failed vet"; \
	unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; failed="$$failed gofmt"; fi; \
	./scripts/gotest.sh -race -count=1 -timeout 40m $$($(GO) list ./... | grep -v '/tests/e2e$$') || failed="$$failed go-test"; \
	./scripts/gotest.sh -race -count=1 -timeout 15m ./tests/e2e/ || failed="$$failed go-test-e2e"; \
	$(BENCH_ONCE) || failed="$$failed bench-once"; \
	( $(INTEROP_TEST) ) || failed="$$failed test-interop"; \
	if [ -n "$$failed" ]; then echo "make test: failed:$$failed"; exit 1; fi; \
	echo "make test: vet, gofmt, go-test and test-interop passed"

# The software switch driven by unmodified third-party clients
# (tests/interop: a module of its own, pinned to what those clients need).
INTEROP_TEST = cd tests/interop && $(GO) vet ./... && $(GO) test -race -count=1 -timeout 10m ./...
test-interop:
	$(INTEROP_TEST)

# Every benchmark once (one iteration each: its bed must reach its start
# and its body run), so that a benchmark cannot rot unseen; make bench
# gives the figures.
BENCH_ONCE = GOTEST_LOG=$${TMPDIR:-/tmp}/bench-once.log ./scripts/benchonce.sh ./...
bench-once:
	$(BENCH_ONCE)

test-short:
	$(GO) test -short ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

vet:
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

# The P4 builds. Each build's outputs are committed with sources.sha256,
# the SHA-256 of every P4 source it was made from (p4src/shared and its
# architecture's directory); a test in make test (p4src, no compiler
# needed) fails when a source changed and its outputs were not made again,
# and another fails when a committed Tofino report is over Tofino 1's
# limits (docs/tofino.md, "Profiles and the stage budget").
# $(call p4_sources,ARCH_DIR): the digest file's content for a build.
p4_sources = find p4src/shared p4src/$(1) -name '*.p4' | LC_ALL=C sort | xargs sha256sum

# Compile the v1model program; its outputs are committed and embedded.
# Two profiles: the default (the data-plane verdict) into build/v1model,
# and "sessions" (-DWITH_SESSIONS: the verdict and the session memory's
# table, docs/sessions.md) into build/v1model-sessions.
V1_PROFILES := default sessions
V1_FLAGS_default  :=
V1_FLAGS_sessions := -DWITH_SESSIONS
V1_OUT_default    := $(V1_OUT)
V1_OUT_sessions   := p4src/build/v1model-sessions

define v1_compile
	mkdir -p $(V1_OUT_$(1))
	$(P4C_BM2) --arch v1model --std p4-16 $(V1_FLAGS_$(1)) \
	  --p4runtime-files $(V1_OUT_$(1))/balancer.p4info.txtpb \
	  -o $(V1_OUT_$(1))/balancer.json p4src/v1model/balancer.p4
	$(call p4_sources,v1model) > $(V1_OUT_$(1))/sources.sha256

endef

p4:
	@command -v $(P4C_BM2) >/dev/null 2>&1 || { \
	  echo "make p4: $(P4C_BM2) not found."; \
	  echo "  Build p4c v1.2.5.16 with its BMv2 back end (docs/dataplane.md, 'Compiling'),"; \
	  echo "  or set P4C_BM2=/path/to/p4c-bm2-ss."; exit 1; }
	$(foreach p,$(V1_PROFILES),$(call v1_compile,$(p)))

# Fail when the committed outputs differ from what p4c makes of the sources.
p4-check: p4
	git diff --exit-code -- $(foreach p,$(V1_PROFILES),$(V1_OUT_$(p)))

# Type-check the Tofino build with the open TNA headers (no SDE needed).
p4-tna-typecheck:
	@command -v $(P4TEST) >/dev/null 2>&1 || { echo "make p4-tna-typecheck: $(P4TEST) not found (part of p4c)"; exit 1; }
	@test -f $(TOFINO_P4INCLUDE)/tna.p4 || { echo "make p4-tna-typecheck: no tna.p4 in TOFINO_P4INCLUDE=$(TOFINO_P4INCLUDE)"; exit 1; }
	$(P4TEST) -D__TARGET_TOFINO__=1 -I $(TOFINO_P4INCLUDE) --std p4-16 p4src/tna/balancer.p4

# Compile for Tofino 1 with bf-p4c, the Tofino back end of the open-source
# p4lang/p4c (backends/tofino, since p4c 1.2.5.0; the Intel SDE's bf-p4c
# works too; docs/tofino.md says how to build it). One compilation per
# profile (TNA_PROFILES; docs/tofino.md, "Profiles"):
#   base     no data-plane verdict (the controller judges alone):
#            10 of 12 stages
#   verdict  -DWITH_VERDICT: the data-plane verdict, 11 of 12 stages
#            (make p4-tna-verdict builds it alone)
#   sessions -DWITH_VERDICT -DWITH_SESSIONS: the verdict and the session
#            memory's table (docs/sessions.md), 11 of 12 stages; compiled
#            to show it fits, not yet run by the controller
# Each writes the BF-Runtime schema, <pipe>/context.json and
# <pipe>/tofino.bin, the TNA P4Info and <program>.conf (bf-p4c's driver
# does not write it: p4c-gen-conf, beside bf-p4c, does) into
# p4src/build/tna[-PROFILE] (not committed), and copies the P4Info, the
# compiler's resource report and table summary into
# p4src/build/tofino[-PROFILE] (committed) with sources.sha256. Give the
# output directory to the daemon, "balancer daemon --device-config
# p4src/build/tna", which packs it for Stratum. Standard P4Runtime externs
# (counters as counters), as Stratum and bf_switchd's PI want.
P4C_GEN_CONF ?= $(BF_P4C_DIR)p4c-gen-conf
TNA_PROFILES := base verdict sessions
TNA_FLAGS_base    :=
TNA_FLAGS_verdict := -DWITH_VERDICT
TNA_FLAGS_sessions := -DWITH_VERDICT -DWITH_SESSIONS
TNA_OUT_base      := p4src/build/tna
TNA_OUT_verdict   := p4src/build/tna-verdict
TNA_OUT_sessions  := p4src/build/tna-sessions
TNA_REPORT_base    := p4src/build/tofino
TNA_REPORT_verdict := p4src/build/tofino-verdict
TNA_REPORT_sessions := p4src/build/tofino-sessions

define tna_compile
	rm -rf $(TNA_OUT_$(1)) && mkdir -p $(TNA_OUT_$(1)) $(TNA_REPORT_$(1))
	$(BF_P4C) --verbose 1 --target tofino --arch tna --std p4-16 $(TNA_FLAGS_$(1)) \
	  --p4runtime-force-std-externs \
	  --p4runtime-files $(TNA_OUT_$(1))/balancer.p4info.txtpb \
	  -o $(TNA_OUT_$(1)) p4src/tna/balancer.p4
	$(P4C_GEN_CONF) --conf-type BF-RT --name balancer --bfrt-name bfrt.json --device tofino \
	  --outputdir $(abspath $(TNA_OUT_$(1))) --p4-version p4-16 --pipe pipe
	cp $(TNA_OUT_$(1))/balancer.p4info.txtpb $(TNA_OUT_$(1))/pipe/logs/resources.json \
	  $(TNA_OUT_$(1))/pipe/logs/table_summary.log $(TNA_REPORT_$(1))/
	$(call p4_sources,tna) > $(TNA_REPORT_$(1))/sources.sha256
	echo "$(TNA_FLAGS_$(1))" > $(TNA_REPORT_$(1))/flags

endef

p4-tna-found:
	@command -v $(BF_P4C) >/dev/null 2>&1 || { \
	  echo "make p4-tna: $(BF_P4C) not found."; \
	  echo "  Build bf-p4c of p4c v1.2.5.16 (about an hour on 2 cores: docs/tofino.md,"; \
	  echo "  'Building bf-p4c in about an hour on 2 cores'), then"; \
	  echo "  make p4-tna BF_P4C=/path/to/bin/bf-p4c (or put bf-p4c on PATH)."; exit 1; }
	@test -x "$(P4C_GEN_CONF)" || { echo "make p4-tna: $(P4C_GEN_CONF) not found (give P4C_GEN_CONF=...)"; exit 1; }

p4-tna: p4-tna-found
	$(foreach p,$(TNA_PROFILES),$(call tna_compile,$(p)))
	$(GO) test ./p4src/tofino -run TestResourceDoc -update >/dev/null
	$(GO) test -count=1 ./p4src/ ./p4src/tofino

p4-tna-verdict: p4-tna-found
	$(call tna_compile,verdict)
	$(GO) test -count=1 ./p4src/ ./p4src/tofino

# Compile every profile afresh into a scratch directory and compare with
# the committed reports and P4Infos (what the compiler makes of the
# sources now, against what is committed); run by CI where bf-p4c is
# present. The build date and run id in resources.json are left out.
p4-tna-check: p4-tna-found
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	for p in $(TNA_PROFILES); do \
	  case $$p in base) flags="$(TNA_FLAGS_base)"; rep=$(TNA_REPORT_base);; verdict) flags="$(TNA_FLAGS_verdict)"; rep=$(TNA_REPORT_verdict);; sessions) flags="$(TNA_FLAGS_sessions)"; rep=$(TNA_REPORT_sessions);; esac; \
	  $(BF_P4C) --verbose 1 --target tofino --arch tna --std p4-16 $$flags --p4runtime-force-std-externs \
	    --p4runtime-files $$tmp/$$p/balancer.p4info.txtpb -o $$tmp/$$p p4src/tna/balancer.p4 >$$tmp/$$p.log 2>&1 || { tail -20 $$tmp/$$p.log; exit 1; }; \
	  diff -u $$rep/balancer.p4info.txtpb $$tmp/$$p/balancer.p4info.txtpb; \
	  diff -u $$rep/table_summary.log $$tmp/$$p/pipe/logs/table_summary.log; \
	  diff -u <(grep -v -e '"build_date"' -e '"run_id"' $$rep/resources.json) <(grep -v -e '"build_date"' -e '"run_id"' $$tmp/$$p/pipe/logs/resources.json); \
	  echo "p4-tna-check: profile $$p: the committed outputs are what bf-p4c makes of the sources"; \
	done

# Generate the P4Testgen cases (docs/testgen.md) for both builds into
# tests/testgen/testdata/<build> (committed). P4Testgen is part of p4c built
# with -DENABLE_TEST_TOOLS=ON beside the Tofino back end. Each build gets
# three greedy runs, each bounded by TESTGEN_SECONDS (the greedy search
# finds its cases early and then keeps searching): "any" (every port and
# frame size: malformed and short frames, packet-outs), "data" (the data
# ports only, frames of 64 bytes and more: the rules, the balancing and
# the filters), "cpu" (a few ports and the CPU port: packet-outs and
# packet-ins); Tofino a fourth, "random" (the data ports, random
# backtracking: it reaches the slots, so the session hash, where the
# greedy one did not). Each run's cases are named after it, and what it left
# uncovered is kept as <run>.uncovered (TestGeneratedCoverage adds the
# runs up). make -j2 p4-testgen runs the two builds side by side.
TESTGEN_SECONDS ?= 600
TESTGEN_OUT     := tests/testgen/testdata
TESTGEN_FLAGS   := --std p4-16 --track-coverage STATEMENTS \
  --only-covering-tests --max-tests 0 --print-coverage -DTESTGEN_NO_SWITCH_INFO
TESTGEN_GREEDY  := --stop-metric MAX_NODE_COVERAGE --path-selection GREEDY_STATEMENT_SEARCH --seed 1
TESTGEN_RUNS_v1model := any data cpu out
TESTGEN_RUNS_tofino  := any data cpu random
TESTGEN_ARCH_v1model := --target bmv2 --arch v1model
TESTGEN_ARCH_tofino  := --target tofino --arch tna -D__TARGET_TOFINO__=1 -I $(TOFINO_P4INCLUDE)
TESTGEN_SRC_v1model  := v1model
TESTGEN_SRC_tofino   := tna
TESTGEN_PROG_v1model := p4src/v1model/balancer.p4
TESTGEN_PROG_tofino  := p4src/tna/balancer.p4
# The Tofino profiles with the data-plane verdict (TNA_PROFILES): the same
# runs, built with the profile's flags and -DTESTGEN_NO_RESUBMIT, which
# leaves out the deparser's resubmit and mirror (P4Testgen 1.2.5.16's
# Tofino target implements neither and stops at the first path that
# reaches them; docs/testgen.md, "The verdict profiles").
TESTGEN_TOFINO_PROFILES := verdict sessions
# They get two more runs, guided and with P4Testgen's PTF back end, the
# only one that chooses register values (tests/testgen/ptf.go): "forward"
# (a data frame balanced to a group in service: a standing verdict read
# from the cell, or none, the data send's evidence) and "return" (a
# keep-alive coming back on a filter port, to the CPU port). An unguided
# search of these profiles does not reach either in TESTGEN_SECONDS
# (docs/testgen.md, "Guided runs"); each writes its cases into one
# <run>.py. The forward run reaches the slots, which the random run is
# there for (it is left out). Both get 900 s: on a loaded host the
# forward run's first case took minutes, and the sessions profile's
# return run once found none in 600 s.
TESTGEN_RUNS_verdict := any data cpu forward return
TESTGEN_SECONDS_forward ?= 900
TESTGEN_SECONDS_return  ?= 900
$(foreach p,$(TESTGEN_TOFINO_PROFILES),$(eval TESTGEN_RUNS_tofino-$(p) := $(TESTGEN_RUNS_verdict)))
$(foreach p,$(TESTGEN_TOFINO_PROFILES),$(eval TESTGEN_ARCH_tofino-$(p) := $(TESTGEN_ARCH_tofino) $(TNA_FLAGS_$(p)) -DTESTGEN_NO_RESUBMIT))
$(foreach p,$(TESTGEN_TOFINO_PROFILES),$(eval TESTGEN_SRC_tofino-$(p) := tna))
$(foreach p,$(TESTGEN_TOFINO_PROFILES),$(eval TESTGEN_PROG_tofino-$(p) := $(TESTGEN_PROG_tofino)))
$(foreach p,$(TESTGEN_TOFINO_PROFILES),$(foreach r,$(TESTGEN_RUNS_verdict),$(eval TESTGEN_$(r)_tofino-$(p) = $$(TESTGEN_$(r)_tofino))))
TESTGEN_any_v1model    := $(TESTGEN_GREEDY)
TESTGEN_data_v1model   := $(TESTGEN_GREEDY) --port-ranges 0:254 --packet-size-range 512:12000
TESTGEN_cpu_v1model    := $(TESTGEN_GREEDY) --port-ranges 0:7,255:255 --packet-size-range 512:12000
TESTGEN_out_v1model    := $(TESTGEN_GREEDY) --output-packet-only --port-ranges 0:254 --packet-size-range 512:12000
TESTGEN_any_tofino     := $(TESTGEN_GREEDY)
TESTGEN_data_tofino    := $(TESTGEN_GREEDY) --port-ranges 0:191 --packet-size-range 512:12000
TESTGEN_cpu_tofino     := $(TESTGEN_GREEDY) --port-ranges 0:7,192:192 --packet-size-range 512:12000
TESTGEN_random_tofino  := --path-selection RANDOM_BACKTRACK --seed 2 --port-ranges 0:191 --packet-size-range 512:12000
TESTGEN_forward_tofino := -DTESTGEN_GUIDE_FORWARD --path-selection RANDOM_BACKTRACK --seed 2 --port-ranges 0:191 --packet-size-range 512:12000
TESTGEN_return_tofino  := -DTESTGEN_GUIDE_RETURN --path-selection RANDOM_BACKTRACK --seed 2 --port-ranges 0:192 --packet-size-range 512:12000

# The back end of a run: STF, but the guided runs' PTF.
TESTGEN_BACKEND_forward := PTF
TESTGEN_BACKEND_return  := PTF

# $(call testgen_run,BUILD,RUN)
# A run that found no case in its time writes no report (a guided run on a
# loaded host can: it covers nothing, and TestGeneratedCoverage adds up
# the reports there are).
# A run ends at its timeout (exit 124), or where P4Testgen 1.2.5.16 stops
# a search on a path whose output port is outside the run's
# --port-ranges ("exceeded the maximum number of permitted guard
# violations": the verdict profiles' cpu run meets it); the cases it
# wrote before are kept, and any other failure fails the target.
TESTGEN_GUARD_END := exceeded the maximum number of permitted guard violations
define testgen_run
timeout $(or $(TESTGEN_SECONDS_$(2)),$(TESTGEN_SECONDS)) $(P4TESTGEN) $(TESTGEN_ARCH_$(1)) $(TESTGEN_FLAGS) --test-backend $(or $(TESTGEN_BACKEND_$(2)),STF) $(TESTGEN_$(2)_$(1)) \
  --test-name $(2) --out-dir $(TESTGEN_OUT)/$(1) $(TESTGEN_PROG_$(1)) > $(TESTGEN_OUT)/$(1)/$(2).log 2>&1 || \
  { rc=$$?; test $$rc = 124 || grep -q '$(TESTGEN_GUARD_END)' $(TESTGEN_OUT)/$(1)/$(2).log; }
if grep -q 'Nodes covered' $(TESTGEN_OUT)/$(1)/$(2).log; then \
  $(GO) run ./tests/testgen/uncovered < $(TESTGEN_OUT)/$(1)/$(2).log > $(TESTGEN_OUT)/$(1)/$(2).uncovered; \
else echo "make p4-testgen-$(1): the run $(2) found no case in its time (it covers nothing; the other runs' reports stand)"; fi
rm -f $(TESTGEN_OUT)/$(1)/$(2).log

endef

p4-testgen: p4-testgen-v1model p4-testgen-tofino p4-testgen-tofino-verdict p4-testgen-tofino-sessions
	$(GO) test ./tests/testgen -run 'TestGenerated(Cases|Coverage)$$' -v

p4-testgen-v1model p4-testgen-tofino p4-testgen-tofino-verdict p4-testgen-tofino-sessions: p4-testgen-%:
	@command -v $(P4TESTGEN) >/dev/null 2>&1 || { echo "make p4-testgen: $(P4TESTGEN) not found (p4c with -DENABLE_TEST_TOOLS=ON; docs/testgen.md)"; exit 1; }
	rm -rf $(TESTGEN_OUT)/$*
	mkdir -p $(TESTGEN_OUT)/$*
	$(foreach r,$(TESTGEN_RUNS_$*),$(call testgen_run,$*,$(r)))
	$(call p4_sources,$(TESTGEN_SRC_$*)) > $(TESTGEN_OUT)/$*/sources.sha256

# Regenerate the management API's Go code from api/balancer.proto. The
# output is committed, so building and testing never need protoc. Needs
# Debian's protobuf-compiler and libprotobuf-dev (well-known types); the Go
# plugins are installed at versions matching go.mod's
# google.golang.org/protobuf and google.golang.org/grpc.
PROTOC                     ?= protoc
PROTOC_GEN_GO_VERSION      ?= v1.36.12
PROTOC_GEN_GO_GRPC_VERSION ?= v1.6.2
PROTO_BIN                  ?= $(shell $(GO) env GOPATH)/bin

.PHONY: proto
proto:
	@command -v $(PROTOC) >/dev/null 2>&1 || { \
	  echo "make proto: $(PROTOC) not found: apt-get install protobuf-compiler libprotobuf-dev"; exit 1; }
	GOBIN=$(PROTO_BIN) $(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
	GOBIN=$(PROTO_BIN) $(GO) install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$(PROTOC_GEN_GO_GRPC_VERSION)
	$(PROTOC) -I api \
	  --plugin=protoc-gen-go=$(PROTO_BIN)/protoc-gen-go \
	  --plugin=protoc-gen-go-grpc=$(PROTO_BIN)/protoc-gen-go-grpc \
	  --go_out=api --go_opt=paths=source_relative \
	  --go-grpc_out=api --go-grpc_opt=paths=source_relative \
	  api/balancer.proto

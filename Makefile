# Inline DPI traffic balancer: build, test, P4 compile.
GO        ?= go
P4C_BM2   ?= p4c-bm2-ss
P4TEST    ?= p4test
BF_P4C    ?= bf-p4c
# TNA architecture headers (barefootnetworks/Open-Tofino share/p4c/p4include)
# for the type check of the Tofino build without an SDE.
TOFINO_P4INCLUDE ?= /opt/p4build/open-tofino-p4include

V1_OUT := p4src/build/v1model
TNA_OUT := p4src/build/tna
# What the Tofino compiler reports of the TNA build (committed).
TOFINO_REPORT := p4src/build/tofino

.PHONY: run all build test test-interop test-short bench vet fmt p4 p4-check p4-tna p4-tna-check p4-testgen p4-testgen-v1model p4-testgen-tofino

all: build test

# The daemon on the built-in software switch with examples/site.yaml.
run:
	./scripts/run-demo.sh

build:
	$(GO) build ./...

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
	( $(INTEROP_TEST) ) || failed="$$failed test-interop"; \
	if [ -n "$$failed" ]; then echo "make test: failed:$$failed"; exit 1; fi; \
	echo "make test: vet, gofmt, go-test and test-interop passed"

# The software switch driven by unmodified third-party clients
# (tests/interop: a module of its own, pinned to what those clients need).
INTEROP_TEST = cd tests/interop && $(GO) vet ./... && $(GO) test -race -count=1 -timeout 10m ./...
test-interop:
	$(INTEROP_TEST)

test-short:
	$(GO) test -short ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

vet:
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

# Compile the v1model program; its outputs are committed and embedded.
p4:
	@command -v $(P4C_BM2) >/dev/null 2>&1 || { \
	  echo "make p4: $(P4C_BM2) not found."; \
	  echo "  Build p4c v1.2.5.16 from https://github.com/p4lang/p4c (docs/tofino.md: its"; \
	  echo "  Abseil/protobuf from local clones), or set P4C_BM2=/path/to/p4c-bm2-ss."; \
	  echo "  See docs/dataplane.md, 'Compiling'."; exit 1; }
	mkdir -p $(V1_OUT)
	$(P4C_BM2) --arch v1model --std p4-16 \
	  --p4runtime-files $(V1_OUT)/balancer.p4info.txtpb \
	  -o $(V1_OUT)/balancer.json p4src/v1model/balancer.p4

# Fail when the committed outputs differ from what p4c makes of the sources.
p4-check: p4
	git diff --exit-code -- $(V1_OUT)

# Type-check the Tofino build with the open TNA headers (no SDE needed).
p4-tna-check:
	@command -v $(P4TEST) >/dev/null 2>&1 || { echo "make p4-tna-check: $(P4TEST) not found (part of p4c)"; exit 1; }
	@test -f $(TOFINO_P4INCLUDE)/tna.p4 || { echo "make p4-tna-check: no tna.p4 in TOFINO_P4INCLUDE=$(TOFINO_P4INCLUDE)"; exit 1; }
	$(P4TEST) -D__TARGET_TOFINO__=1 -I $(TOFINO_P4INCLUDE) --std p4-16 p4src/tna/balancer.p4

# Compile for Tofino with bf-p4c, the Tofino back end of the open-source
# p4lang/p4c (backends/tofino, since p4c 1.2.5.0; the Intel SDE's bf-p4c
# works too). Writes the BF-Runtime schema, <pipe>/context.json and
# <pipe>/tofino.bin, the .conf that names them, and the TNA P4Info into
# $(TNA_OUT) (not committed); copies the P4Info and the compiler's resource
# report into $(TOFINO_REPORT) (committed) and renders docs/tofino.md's
# stage table from it. Give $(TNA_OUT) to the daemon,
# "balancer daemon --device-config $(TNA_OUT)", which packs it for Stratum.
# Standard P4Runtime externs (counters as counters), as Stratum wants.
p4-tna:
	@command -v $(BF_P4C) >/dev/null 2>&1 || { \
	  echo "make p4-tna: $(BF_P4C) not found."; \
	  echo "  Build it from https://github.com/p4lang/p4c (tag v1.2.5.16) with the Tofino back end:"; \
	  echo "    cmake -S p4c -B build -DENABLE_TOFINO=ON -DP4C_DRIVER_NAME=bf-p4c -DENABLE_GTESTS=OFF \\"; \
	  echo "      -DENABLE_EBPF=OFF -DENABLE_UBPF=OFF -DENABLE_DPDK=OFF -DENABLE_P4TC=OFF"; \
	  echo "    cmake --build build -j2   (hours on 2 cores; docs/tofino.md lists its dependencies)"; \
	  echo "  then: make p4-tna BF_P4C=/path/to/p4c/build/bf-p4c (or put bf-p4c on PATH)."; \
	  echo "  See docs/tofino.md."; exit 1; }
	mkdir -p $(TNA_OUT) $(TOFINO_REPORT)
	$(BF_P4C) --verbose 1 --target tofino --arch tna --std p4-16 \
	  --p4runtime-force-std-externs \
	  --p4runtime-files $(TNA_OUT)/balancer.p4info.txtpb \
	  -o $(TNA_OUT) p4src/tna/balancer.p4
	cp $(TNA_OUT)/balancer.p4info.txtpb $(TNA_OUT)/pipe/logs/resources.json \
	  $(TNA_OUT)/pipe/logs/table_summary.log $(TOFINO_REPORT)/
	$(GO) test ./p4src/tofino -run TestResourceDoc -update >/dev/null
	$(GO) test ./p4src/ ./p4src/tofino

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
P4TESTGEN       ?= p4testgen
TESTGEN_SECONDS ?= 600
TESTGEN_OUT     := tests/testgen/testdata
TESTGEN_FLAGS   := --std p4-16 --test-backend STF --track-coverage STATEMENTS \
  --only-covering-tests --max-tests 0 --print-coverage -DTESTGEN_NO_SWITCH_INFO
TESTGEN_GREEDY  := --stop-metric MAX_NODE_COVERAGE --path-selection GREEDY_STATEMENT_SEARCH --seed 1
TESTGEN_RUNS_v1model := any data cpu out
TESTGEN_RUNS_tofino  := any data cpu random
TESTGEN_ARCH_v1model := --target bmv2 --arch v1model
TESTGEN_ARCH_tofino  := --target tofino --arch tna -D__TARGET_TOFINO__=1 -I $(TOFINO_P4INCLUDE)
TESTGEN_PROG_v1model := p4src/v1model/balancer.p4
TESTGEN_PROG_tofino  := p4src/tna/balancer.p4
TESTGEN_any_v1model    := $(TESTGEN_GREEDY)
TESTGEN_data_v1model   := $(TESTGEN_GREEDY) --port-ranges 0:254 --packet-size-range 512:12000
TESTGEN_cpu_v1model    := $(TESTGEN_GREEDY) --port-ranges 0:7,255:255 --packet-size-range 512:12000
TESTGEN_out_v1model    := $(TESTGEN_GREEDY) --output-packet-only --port-ranges 0:254 --packet-size-range 512:12000
TESTGEN_any_tofino     := $(TESTGEN_GREEDY)
TESTGEN_data_tofino    := $(TESTGEN_GREEDY) --port-ranges 0:191 --packet-size-range 512:12000
TESTGEN_cpu_tofino     := $(TESTGEN_GREEDY) --port-ranges 0:7,192:192 --packet-size-range 512:12000
TESTGEN_random_tofino  := --path-selection RANDOM_BACKTRACK --seed 2 --port-ranges 0:191 --packet-size-range 512:12000

# $(call testgen_run,BUILD,RUN)
define testgen_run
timeout $(TESTGEN_SECONDS) $(P4TESTGEN) $(TESTGEN_ARCH_$(1)) $(TESTGEN_FLAGS) $(TESTGEN_$(2)_$(1)) \
  --test-name $(2) --out-dir $(TESTGEN_OUT)/$(1) $(TESTGEN_PROG_$(1)) > $(TESTGEN_OUT)/$(1)/$(2).log 2>&1 || test $$? = 124
$(GO) run ./tests/testgen/uncovered < $(TESTGEN_OUT)/$(1)/$(2).log > $(TESTGEN_OUT)/$(1)/$(2).uncovered
rm -f $(TESTGEN_OUT)/$(1)/$(2).log

endef

p4-testgen: p4-testgen-v1model p4-testgen-tofino
	$(GO) test ./tests/testgen -run 'TestGenerated(Cases|Coverage)$$' -v

p4-testgen-v1model p4-testgen-tofino: p4-testgen-%:
	@command -v $(P4TESTGEN) >/dev/null 2>&1 || { echo "make p4-testgen: $(P4TESTGEN) not found (p4c with -DENABLE_TEST_TOOLS=ON; docs/testgen.md)"; exit 1; }
	rm -rf $(TESTGEN_OUT)/$*
	mkdir -p $(TESTGEN_OUT)/$*
	$(foreach r,$(TESTGEN_RUNS_$*),$(call testgen_run,$*,$(r)))

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

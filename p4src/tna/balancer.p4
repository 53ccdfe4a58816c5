// Inline DPI traffic balancer: TNA (Tofino) build.
// See docs/dataplane.md. The top file only wires blocks together.
// Two profiles (docs/tofino.md, "Profiles"): without -DWITH_VERDICT, the
// build that fits Tofino 1 (the controller judges the filters alone);
// with it, the data-plane verdict.
#include "include/arch.p4"
#if defined(TESTGEN_GUIDE_FORWARD) || defined(TESTGEN_GUIDE_RETURN)
#include <testgen.p4>
#endif
#include "../shared/ids.p4"
#include "../shared/sizes.p4"
#include "../shared/headers.p4"
#include "include/parser.p4"
#ifdef WITH_VERDICT
#include "include/control/verdict.p4"
#endif
#include "../shared/ingress.p4"
#include "include/control/egress.p4"

Pipeline(
    IngressParser(),
    BalancerIngress(),
    IngressDeparser(),
    EgressParser(),
    BalancerEgress(),
    EgressDeparser()
) pipe;

Switch(pipe) main;

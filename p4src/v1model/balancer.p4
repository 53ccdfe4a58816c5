// Inline DPI traffic balancer: v1model (BMv2) build.
// See docs/dataplane.md. The top file only wires blocks together.
#include "include/arch.p4"
#include "../shared/ids.p4"
#include "../shared/sizes.p4"
#include "../shared/headers.p4"
#include "include/parser.p4"
#include "include/control/verdict.p4"
#include "../shared/ingress.p4"
#include "include/control/egress.p4"

V1Switch(
    IngressParser(),
    NoVerifyChecksum(),
    BalancerIngress(),
    BalancerEgress(),
    NoComputeChecksum(),
    BalancerDeparser()
) main;

// Command uncovered reads P4Testgen's --print-coverage output on stdin and
// writes the statements its run left uncovered (make p4-testgen keeps
// them beside the generated cases: docs/testgen.md).
package main

import (
	"fmt"
	"os"

	"github.com/dpi-balancer/balancer/tests/testgen"
)

func main() {
	u, err := testgen.ParseCoverageLog(os.Stdin)
	if err == nil {
		err = testgen.WriteUncovered(os.Stdout, u)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "uncovered:", err)
		os.Exit(1)
	}
}

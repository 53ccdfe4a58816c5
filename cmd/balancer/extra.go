package main

import "github.com/spf13/cobra"

// extraCommands are the long-running programs: the daemon and the
// software switch.
func extraCommands() []*cobra.Command {
	return []*cobra.Command{newDaemonCmd(), newSimCmd()}
}

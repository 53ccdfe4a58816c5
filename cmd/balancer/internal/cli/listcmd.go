package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
)

// listSpec describes a "list" subcommand of one kind of object of the
// running configuration.
type listSpec[T any] struct {
	noun, plural   string // "balance-group", "balance groups"
	short, example string
	items          func(*config.Config) []T
	// header and rows make the table, with the status the daemon reports.
	header []string
	rows   func(w io.Writer, cfg *config.Config, st *apiv1.Status)
}

// newListCmd lists the objects: structured (-o json/yaml) as the
// configuration holds them, else a table with their state; "no ... defined"
// and how to add one when there is none.
func newListCmd[T any](a *app, s listSpec[T]) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   s.short,
		Example: s.example,
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := a.getConfig(cmd)
			if err != nil {
				return err
			}
			items := s.items(cfg)
			if a.structured() {
				return a.printValue(nonNil(items))
			}
			if len(items) == 0 {
				fmt.Fprintf(a.stdout, "no %s defined; add one with 'balancer %s add'\n", s.plural, s.noun)
				return nil
			}
			st, err := a.getStatus(cmd)
			if err != nil {
				return err
			}
			w := table(a.stdout)
			row(w, toAny(s.header)...)
			s.rows(w, cfg, st)
			return w.Flush()
		},
	}
}

func toAny(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

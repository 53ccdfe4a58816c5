package tables

import (
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

	"github.com/dpi-balancer/balancer/p4entity"
)

// Key is an entity's identity (p4entity.Key): two entities with the same
// Key address the same switch state.
func Key(e *p4v1.Entity) string { return p4entity.Key(e) }

// AppendKey appends e's Key to b (p4entity.AppendKey).
func AppendKey(b []byte, e *p4v1.Entity) []byte { return p4entity.AppendKey(b, e) }

// SameEntry says whether two entities put the same state on a switch, as
// Diff sees it (p4entity.SameEntry).
func SameEntry(a, b *p4v1.Entity) bool { return p4entity.SameEntry(a, b) }

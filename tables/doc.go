// Package tables translates a site configuration into the exact P4Runtime
// entities the balancer's data plane needs, and computes the difference
// between that desired state and what a switch holds. It is pure and
// deterministic: the same configuration and state give the same entities,
// in the same order, on any controller. It does no I/O and does not log.
//
// The pieces:
//   - Compiler.Compile: config + runtime state -> Desired (entities, slot
//     layouts and their digests).
//   - BaseLayout / Layout.Rebalanced: the slot layout (docs/integrity.md, docs/availability.md).
//   - PlannedLayout (Compile with FromLayouts): the layout of a planned
//     change, from the previous one, moving only the slots it must;
//     Moves / LayoutMoves say how many slots and sessions a change moves.
//   - Diff: desired vs read-back entities -> ordered batches of updates,
//     every prefix of which is a safe switch state (docs/integrity.md).
package tables

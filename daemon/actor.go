package daemon

import "context"

type byKey struct{}

// WithBy says who makes the calls made with ctx: the API client's user
// ("root (uid 0)", from the unix socket's peer credentials) or the
// subject of its TLS client certificate ("CN=ops1"). A revision saved, a
// manual bypass set or a filter group returned under ctx records it (in
// the revision's history and in the event).
func WithBy(ctx context.Context, by string) context.Context {
	return context.WithValue(ctx, byKey{}, by)
}

// ByOf is who WithBy says makes the calls made with ctx ("" when not
// known).
func ByOf(ctx context.Context) string {
	by, _ := ctx.Value(byKey{}).(string)
	return by
}

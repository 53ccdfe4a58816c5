package daemon

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The owner's mailbox runs what was posted in order; a keyed post replaces
// the one of its key still waiting (it moves to the end), an unkeyed one
// is never dropped, and the owner is kicked.
func TestMailboxKeepsLatestOfEachKey(t *testing.T) {
	m := newMailbox()
	var got []string
	add := func(s string) func(context.Context) { return func(context.Context) { got = append(got, s) } }
	m.postKey("oper P7", add("P7 down"))
	m.post(add("subscription lost"))
	m.postKey("oper P8", add("P8 down"))
	m.postKey("oper P7", add("P7 up"))
	m.post(add("subscription back"))
	select {
	case <-m.kick:
	default:
		t.Fatal("the owner was not kicked")
	}
	for _, w := range m.take() {
		w.f(context.Background())
	}
	assert.Equal(t, []string{"subscription lost", "P8 down", "P7 up", "subscription back"}, got)
	assert.Empty(t, m.take(), "taken work is gone")
}

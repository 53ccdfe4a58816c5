package tables

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLayoutCodec(t *testing.T) {
	in := map[string]*Layout{
		"G1": {Group: 1, SlotBits: 2, Slots: []Target{{FilterGroup: 1, Core: 0}, {FilterGroup: 63, Core: 1023}, {FilterGroup: 2, Core: 7}, {FilterGroup: 1, Core: 1}}},
		"G2": {Group: 2, SlotBits: 1, Slots: []Target{{FilterGroup: 5, Core: 512}, {FilterGroup: 0, Core: 0}}},
	}
	b, err := EncodeLayouts(7, in)
	require.NoError(t, err)
	out, rev, err := DecodeLayouts(b)
	require.NoError(t, err)
	assert.Equal(t, uint64(7), rev)
	assert.Equal(t, in, out)

	// Past the 6-bit filter group id or the 10-bit core: refused.
	for _, bad := range []Target{{FilterGroup: 64}, {Core: 1024}} {
		_, err = EncodeLayouts(1, map[string]*Layout{"G": {Group: 1, SlotBits: 1, Slots: []Target{bad, {}}}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "store: layout of G: slot 0 target")
	}
	// A changed byte breaks the digest.
	b[len(b)/2] ^= 1
	_, _, err = DecodeLayouts(b)
	require.Error(t, err)
}

package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

// A counter that goes back between two readings (the switch was reset)
// or a site that changed shape gives no rate.
func TestCounterRatesRefuseLies(t *testing.T) {
	a := &apiv1.Counters{Filters: []*apiv1.FilterCounters{{Name: "F1", ToFilter: &apiv1.PacketBytes{Packets: 10, Bytes: 1000}}}}
	b := &apiv1.Counters{Filters: []*apiv1.FilterCounters{{Name: "F1", ToFilter: &apiv1.PacketBytes{Packets: 30, Bytes: 3000}}}}
	r, err := counterRates(a, b, 2)
	require.NoError(t, err)
	assert.Equal(t, uint64(10), r.GetFilters()[0].GetToFilter().GetPackets())
	assert.Equal(t, uint64(1000), r.GetFilters()[0].GetToFilter().GetBytes())
	assert.Equal(t, uint64(30), b.GetFilters()[0].GetToFilter().GetPackets(), "the reading is not changed")
	_, err = counterRates(b, a, 2)
	assert.ErrorContains(t, err, "counter .filters[0].to_filter went back")
	c := &apiv1.Counters{Filters: []*apiv1.FilterCounters{{Name: "F9", ToFilter: &apiv1.PacketBytes{Packets: 40}}}}
	_, err = counterRates(a, c, 2)
	assert.ErrorContains(t, err, "the site changed between the readings (.filters: F1 then F9)")
	_, err = counterRates(a, b, 0)
	assert.Error(t, err)
}

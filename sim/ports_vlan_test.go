package sim

import (
	"testing"

	"github.com/gopacket/gopacket/afpacket"
	"github.com/stretchr/testify/assert"
)

func TestRestoreZeroTCITag(t *testing.T) {
	macs := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	ipv4 := append(append([]byte{}, macs...), 0x08, 0x00, 0x45)
	zeroTagged := append(append([]byte{}, macs...), 0x81, 0x00, 0x00, 0x00, 0x08, 0x00, 0x45)
	// What afpacket hands over when it put back a tag with PCP 3, VID 0.
	pcpTagged := append(append([]byte{}, macs...), 0x81, 0x00, 0x60, 0x00, 0x08, 0x00, 0x45)
	vid5 := append(append([]byte{}, macs...), 0x81, 0x00, 0x00, 0x05, 0x08, 0x00, 0x45)
	vid0 := []interface{}{afpacket.AncillaryVLAN{VLAN: 0}}
	cases := []struct {
		name string
		in   []byte
		anc  []interface{}
		want []byte
	}{
		{"untagged frame: unchanged", ipv4, nil, ipv4},
		{"tag with VID 5 already restored by afpacket: unchanged", vid5, []interface{}{afpacket.AncillaryVLAN{VLAN: 5}}, vid5},
		{"priority tag PCP 3 already restored: unchanged", pcpTagged, vid0, pcpTagged},
		{"all-zero TCI stripped by the kernel: tag put back", ipv4, vid0, zeroTagged},
		{"all-zero TCI over an inner C-tag: outer tag put back", vid5, vid0,
			append(append(append([]byte{}, macs...), 0x81, 0x00, 0x00, 0x00), vid5[12:]...)},
		{"runt frame: unchanged", macs[:10], vid0, macs[:10]},
	}
	var buf []byte
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := append([]byte{}, c.in...)
			var got []byte
			got, buf = restoreZeroTCITag(in, c.anc, buf)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.in, in, "input frame must not be modified")
		})
	}
}

func TestRestoreZeroTCITagJumbo(t *testing.T) {
	in := make([]byte, 16000)
	got, _ := restoreZeroTCITag(in, []interface{}{afpacket.AncillaryVLAN{VLAN: 0}}, nil)
	assert.Len(t, got, 16004)
}

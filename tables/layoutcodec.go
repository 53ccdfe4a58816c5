package tables

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/dpi-balancer/balancer/p4src"
)

// layoutsDoc is the saved form of the base slot layouts (the state
// directory's layouts.json; a shared store keeps the same). Each slot is 2
// bytes, big endian: the filter group id (6 bits) and the core (10 bits),
// the data plane's filter_group<<10 | core (p4src.CoreCounterIndex), base64
// in Slots.
type layoutsDoc struct {
	Revision uint64        `json:"revision"`
	Groups   []layoutGroup `json:"groups"`
	Digest   string        `json:"digest"` // over the groups, as layoutDigest
}

type layoutGroup struct {
	Name     string `json:"name"`
	Group    uint32 `json:"group"`
	SlotBits uint   `json:"slot_bits"`
	Slots    string `json:"slots"`
}

// EncodeLayouts encodes the base slot layouts saved with revision rev, by
// balance group name.
func EncodeLayouts(rev uint64, ls map[string]*Layout) ([]byte, error) {
	doc := layoutsDoc{Revision: rev}
	names := make([]string, 0, len(ls))
	for n := range ls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		l := ls[name]
		b := make([]byte, 2*len(l.Slots))
		for i, t := range l.Slots {
			if t.FilterGroup >= p4src.FilterGroupSize || t.Core >= p4src.CoreCounterCores {
				return nil, fmt.Errorf("store: layout of %s: slot %d target %d/%d out of range", name, i, t.FilterGroup, t.Core)
			}
			binary.BigEndian.PutUint16(b[2*i:], uint16(p4src.CoreCounterIndex(t.FilterGroup, t.Core)))
		}
		doc.Groups = append(doc.Groups, layoutGroup{Name: name, Group: l.Group, SlotBits: l.SlotBits, Slots: base64.StdEncoding.EncodeToString(b)})
	}
	g, err := json.Marshal(doc.Groups)
	if err != nil {
		return nil, err
	}
	doc.Digest = layoutDigest(g)
	return json.Marshal(doc)
}

// DecodeLayouts decodes what EncodeLayouts made, checking its digest, and
// returns the layouts and the revision they were saved with.
func DecodeLayouts(b []byte) (map[string]*Layout, uint64, error) {
	var doc layoutsDoc
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, 0, err
	}
	g, err := json.Marshal(doc.Groups)
	if err != nil || layoutDigest(g) != doc.Digest {
		return nil, 0, errors.New("digest mismatch")
	}
	out := map[string]*Layout{}
	for _, lg := range doc.Groups {
		raw, err := base64.StdEncoding.DecodeString(lg.Slots)
		if err != nil || lg.SlotBits < 1 || lg.SlotBits > 16 || len(raw) != 2<<lg.SlotBits {
			return nil, 0, fmt.Errorf("group %s: malformed slots", lg.Name)
		}
		l := &Layout{Group: lg.Group, SlotBits: lg.SlotBits, Slots: make([]Target, 1<<lg.SlotBits)}
		for i := range l.Slots {
			fg, core, _ := p4src.CoreCounterTarget(int64(binary.BigEndian.Uint16(raw[2*i:])))
			l.Slots[i] = Target{FilterGroup: fg, Core: core}
		}
		out[lg.Name] = l
	}
	return out, doc.Revision, nil
}

// layoutDigest is the state store's digest: sha256, 12 hex digits.
func layoutDigest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:6])
}

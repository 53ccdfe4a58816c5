package bmv2

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/sim/dataplane"
)

// smallSessions is the sessions profile with a sessions table of size
// entries: its P4Info, and its BMv2 JSON with the table's max_size so
// (the compiled program is the committed one; only the size differs).
func smallSessions(t *testing.T, size int64) (*p4src.Schema, []byte) {
	t.Helper()
	s, err := p4src.LoadSessions()
	require.NoError(t, err)
	info := proto.Clone(s.Info).(*p4configv1.P4Info)
	for _, tb := range info.GetTables() {
		if tb.GetPreamble().GetName() == p4src.TableSessions {
			tb.Size = size
		}
	}
	schema, err := p4src.NewSchema(info)
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(p4src.SessionsBMv2JSON))
	dec.UseNumber()
	var prog map[string]any
	require.NoError(t, dec.Decode(&prog))
	found := 0
	for _, p := range prog["pipelines"].([]any) {
		for _, tb := range p.(map[string]any)["tables"].([]any) {
			if m := tb.(map[string]any); m["name"] == p4src.TableSessions {
				m["max_size"] = size
				found++
			}
		}
	}
	require.Equal(t, 1, found, "the sessions table in the BMv2 JSON")
	out, err := json.Marshal(prog)
	require.NoError(t, err)
	return schema, out
}

// codesOf is the canonical code of each update of a CONTINUE_ON_ERROR
// write's answer.
func codesOf(t *testing.T, err error, n int) []codes.Code {
	t.Helper()
	out := make([]codes.Code, n)
	if err == nil {
		return out
	}
	ds := status.Convert(err).Details()
	require.Len(t, ds, n, "one error per update: %v", err)
	for i, d := range ds {
		pe, ok := d.(*p4v1.Error)
		require.True(t, ok)
		out[i] = codes.Code(pe.GetCanonicalCode())
		if pe.GetCanonicalCode() != 0 {
			t.Logf("update %d: code %d (%s): %s", i, pe.GetCanonicalCode(), codes.Code(pe.GetCanonicalCode()), pe.GetMessage())
		}
	}
	return out
}

// A full sessions table refuses an insert, on BMv2 as on the software
// switch, and takes it once an entry is deleted: a table of 64 entries,
// 65 inserts in one write, then a delete and the 65th again. The answers
// differ in their code: the software switch says RESOURCE_EXHAUSTED (the
// P4Runtime specification's, what the learner counts as refused by a full
// table); BMv2 (PI's bmv2 target) says UNKNOWN, "Error when adding match
// entry to target", which the learner counts as failed. (The learner
// stops inserting once it holds the table's size, so on BMv2 too its
// refusals past the size are counted as full.) On the way, what balancer
// trace reads: one session's entry by its whole key, held or not.
func TestSessionsTableFullBMv2VsSim(t *testing.T) {
	const size = 64
	schema, bmv2JSON := smallSessions(t, size)
	tg := startBMv2With(t, schema, bmv2JSON)
	dp, err := dataplane.New(schema)
	require.NoError(t, err)
	tbl, err := sessionmem.Resolve(schema)
	require.NoError(t, err)
	require.Equal(t, int64(size), tbl.Size)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	insert := func(lo, hi int) []*p4v1.Update {
		var us []*p4v1.Update
		for i := lo; i < hi; i++ {
			k := sessionmem.Key{BalanceGroup: 1, Lo: uint32(i + 1), Hi: 1 << 31, Proto: 6}
			us = append(us, &p4v1.Update{Type: p4v1.Update_INSERT, Entity: &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{
				TableEntry: tbl.Entry(k, uint8(i%3), uint16(i%4), time.Minute)}}})
		}
		return us
	}
	// both writes us to BMv2 and to the software switch: their codes,
	// the software switch's mapped as its P4Runtime server does.
	both := func(us []*p4v1.Update) (bmv2, sw []codes.Code) {
		t.Helper()
		_, err := tg.client.RawWrite(ctx, p4v1.WriteRequest_CONTINUE_ON_ERROR, us)
		bmv2 = codesOf(t, err, len(us))
		sw = make([]codes.Code, len(us))
		for i, e := range dp.Write(us, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
			switch {
			case e == nil:
			case errors.Is(e, dataplane.ErrResourceExhausted):
				sw[i] = codes.ResourceExhausted
			default:
				sw[i] = codes.Unknown
				t.Errorf("software switch: update %d: %v", i, e)
			}
		}
		return bmv2, sw
	}
	bm, sw := both(insert(0, size+1))
	for i := range size {
		assert.Equal(t, codes.OK, bm[i], "BMv2: insert %d", i)
		assert.Equal(t, codes.OK, sw[i], "software switch: insert %d", i)
	}
	assert.Equal(t, codes.ResourceExhausted, sw[size], "software switch: the 65th is RESOURCE_EXHAUSTED")
	assert.Equal(t, codes.Unknown, bm[size], "BMv2: the 65th is refused, UNKNOWN (PI's bmv2 target does not map a full table)")
	es, err := tg.client.Read(ctx, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: tbl.ID}}})
	require.NoError(t, err)
	assert.Len(t, es, size, "BMv2 holds its size")

	// What trace reads: one session's entry by its whole key; a session
	// not held reads as NOT_FOUND or nothing (the daemon takes both as not
	// held).
	k := sessionmem.Key{BalanceGroup: 1, Lo: 5, Hi: 1 << 31, Proto: 6}
	one, err := tg.client.Read(ctx, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: tbl.KeyEntry(k)}})
	require.NoError(t, err)
	require.Len(t, one, 1, "BMv2 reads one entry by its key")
	h, err := tbl.Decode(one[0].GetTableEntry())
	require.NoError(t, err)
	assert.Equal(t, sessionmem.Held{Key: k, FilterGroup: 4 % 3, Core: 4 % 4, Idle: time.Minute}, h)
	missing := sessionmem.Key{BalanceGroup: 1, Lo: 999, Hi: 1 << 31, Proto: 6}
	none, err := tg.client.Read(ctx, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: tbl.KeyEntry(missing)}})
	if err != nil {
		assert.Equal(t, codes.NotFound, status.Code(errors.Unwrap(err)), "BMv2, a session not held: %v", err)
		t.Logf("BMv2 reads a session not held as: %v", err)
	} else {
		assert.Empty(t, none, "BMv2, a session not held")
		t.Logf("BMv2 reads a session not held as: no entity")
	}

	del := insert(0, 1)
	del[0].Type = p4v1.Update_DELETE
	del[0].GetEntity().GetTableEntry().Action = nil
	del[0].GetEntity().GetTableEntry().IdleTimeoutNs = 0
	bm, sw = both(del)
	assert.Equal(t, []codes.Code{codes.OK}, bm, "BMv2: a delete")
	assert.Equal(t, []codes.Code{codes.OK}, sw, "software switch: a delete")
	bm, sw = both(insert(size, size+1))
	assert.Equal(t, []codes.Code{codes.OK}, bm, "BMv2: room again after a delete")
	assert.Equal(t, []codes.Code{codes.OK}, sw, "software switch: room again after a delete")
}

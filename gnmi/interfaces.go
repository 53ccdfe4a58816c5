package gnmi

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
)

// OpenConfig status strings, as Stratum serves them for
// /interfaces/interface/state/{oper-status,admin-status}.
const (
	StatusUp   = "UP"
	StatusDown = "DOWN"
)

// InterfaceState is the state of one port as published under
// /interfaces/interface[name=Name].
type InterfaceState struct {
	Name        string
	OperUp      bool
	AdminUp     bool
	InOctets    uint64
	InPkts      uint64 // in-unicast-pkts
	OutOctets   uint64
	OutPkts     uint64 // out-unicast-pkts
	InDiscards  uint64
	OutDiscards uint64
	LastChange  time.Time // last oper-status change; zero publishes 0
	// SpeedBPS is the port's speed; 0 publishes no port-speed leaf.
	SpeedBPS uint64
}

// Stratum's port-speed strings (ConvertSpeedBpsToString in
// stratum/hal/lib/common/utils.cc), by bits per second.
var speedNames = map[uint64]string{
	10_000_000_000:  "SPEED_10GB",
	20_000_000_000:  "SPEED_20GB",
	25_000_000_000:  "SPEED_25GB",
	40_000_000_000:  "SPEED_40GB",
	50_000_000_000:  "SPEED_50GB",
	100_000_000_000: "SPEED_100GB",
}

// SpeedUnknown is the port-speed of a speed Stratum has no name for.
const SpeedUnknown = "SPEED_UNKNOWN"

// SpeedString gives the OpenConfig port-speed value of a speed, as
// Stratum serves /interfaces/interface/ethernet/state/port-speed
// ("SPEED_100GB"), SpeedUnknown for others.
func SpeedString(bps uint64) string {
	if s, ok := speedNames[bps]; ok {
		return s
	}
	return SpeedUnknown
}

// ParseSpeed reads a port-speed value (module-qualified or not) back to
// bits per second; 0 for SPEED_UNKNOWN or a value it does not know.
func ParseSpeed(s string) uint64 {
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		s = s[i+1:]
	}
	for bps, n := range speedNames {
		if n == s {
			return bps
		}
	}
	return 0
}

// interfacePath returns /interfaces/interface[name=name]/elems...
func interfacePath(name string, elems ...string) *gpb.Path {
	p := &gpb.Path{Elem: make([]*gpb.PathElem, 0, 2+len(elems))}
	p.Elem = append(p.Elem,
		&gpb.PathElem{Name: "interfaces"},
		&gpb.PathElem{Name: "interface", Key: map[string]string{"name": name}})
	for _, e := range elems {
		p.Elem = append(p.Elem, &gpb.PathElem{Name: e})
	}
	return p
}

func statusString(up bool) string {
	if up {
		return StatusUp
	}
	return StatusDown
}

// PublishInterface publishes the state of one interface, with full paths and
// value types as Stratum serves them:
//
//	/interfaces/interface[name=N]/state/oper-status           string "UP" | "DOWN"
//	/interfaces/interface[name=N]/state/admin-status          string "UP" | "DOWN"
//	/interfaces/interface[name=N]/state/last-change           uint, ns since the Unix epoch
//	/interfaces/interface[name=N]/state/counters/in-octets    uint
//	/interfaces/interface[name=N]/state/counters/in-unicast-pkts  uint
//	/interfaces/interface[name=N]/state/counters/out-octets   uint
//	/interfaces/interface[name=N]/state/counters/out-unicast-pkts uint
//	/interfaces/interface[name=N]/state/counters/in-discards  uint
//	/interfaces/interface[name=N]/state/counters/out-discards uint
//	/interfaces/interface[name=N]/config/enabled              bool
//	/interfaces/interface[name=N]/ethernet/state/port-speed   string "SPEED_100GB" (when SpeedBPS is set)
//
// Only leaves whose value changed reach ON_CHANGE subscribers.
func (s *Server) PublishInterface(st InterfaceState) error {
	if st.Name == "" {
		return fmt.Errorf("gnmi: publish interface: %w: empty name", ErrInvalidArgument)
	}
	var lastChange uint64
	if !st.LastChange.IsZero() && st.LastChange.UnixNano() > 0 {
		lastChange = uint64(st.LastChange.UnixNano())
	}
	str := func(v string) *gpb.TypedValue { return &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: v}} }
	u64 := func(v uint64) *gpb.TypedValue { return &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: v}} }
	leaf := func(v *gpb.TypedValue, elems ...string) *gpb.Update {
		return &gpb.Update{Path: interfacePath(st.Name, elems...), Val: v}
	}
	n := &gpb.Notification{
		Prefix: &gpb.Path{Target: s.target},
		Update: []*gpb.Update{
			leaf(str(statusString(st.OperUp)), "state", "oper-status"),
			leaf(str(statusString(st.AdminUp)), "state", "admin-status"),
			leaf(u64(lastChange), "state", "last-change"),
			leaf(u64(st.InOctets), "state", "counters", "in-octets"),
			leaf(u64(st.InPkts), "state", "counters", "in-unicast-pkts"),
			leaf(u64(st.OutOctets), "state", "counters", "out-octets"),
			leaf(u64(st.OutPkts), "state", "counters", "out-unicast-pkts"),
			leaf(u64(st.InDiscards), "state", "counters", "in-discards"),
			leaf(u64(st.OutDiscards), "state", "counters", "out-discards"),
			leaf(&gpb.TypedValue{Value: &gpb.TypedValue_BoolVal{BoolVal: st.AdminUp}}, "config", "enabled"),
		},
	}
	if st.SpeedBPS != 0 {
		n.Update = append(n.Update, leaf(str(SpeedString(st.SpeedBPS)), "ethernet", "state", "port-speed"))
	}
	if err := s.publish(n); err != nil {
		return fmt.Errorf("gnmi: publish interface %s: %w", st.Name, err)
	}
	return nil
}

// DeleteInterface removes every leaf of /interfaces/interface[name=name];
// subscribers receive the deletes.
func (s *Server) DeleteInterface(name string) error {
	if name == "" {
		return fmt.Errorf("gnmi: delete interface: %w: empty name", ErrInvalidArgument)
	}
	n := &gpb.Notification{
		Prefix: &gpb.Path{Target: s.target},
		Delete: []*gpb.Path{interfacePath(name)},
	}
	if err := s.publish(n); err != nil {
		return fmt.Errorf("gnmi: delete interface %s: %w", name, err)
	}
	return nil
}

// InterfaceEnabledSetHandler returns a SetHandler that accepts update and
// replace of /interfaces/interface[name=X]/config/enabled (a bool, as
// bool_val or a JSON true/false) and calls apply for each, in request order
// (replaces first, then updates, as gNMI orders them). Deletes and any other
// path are rejected with ErrInvalidArgument before anything is applied.
// apply may wrap ErrNotFound for an unknown port. Changes applied before a
// failing one are not rolled back.
//
// The handler does not touch the served tree: apply (the switch) is expected
// to publish the new admin state with PublishInterface once it holds.
func InterfaceEnabledSetHandler(apply func(name string, enabled bool) error) SetHandler {
	return func(ctx context.Context, req *gpb.SetRequest) (*gpb.SetResponse, error) {
		if len(req.GetDelete()) > 0 {
			return nil, fmt.Errorf("%w: set: delete of %s is not supported; only update or replace of /interfaces/interface[name=NAME]/config/enabled",
				ErrInvalidArgument, pathString(req.GetPrefix(), req.GetDelete()[0]))
		}
		type change struct {
			name    string
			enabled bool
			op      gpb.UpdateResult_Operation
			path    *gpb.Path
		}
		var changes []change
		for _, group := range []struct {
			op      gpb.UpdateResult_Operation
			updates []*gpb.Update
		}{
			{gpb.UpdateResult_REPLACE, req.GetReplace()},
			{gpb.UpdateResult_UPDATE, req.GetUpdate()},
		} {
			for _, u := range group.updates {
				name, err := enabledPathName(req.GetPrefix(), u.GetPath())
				if err != nil {
					return nil, err
				}
				enabled, err := boolValue(u.GetVal())
				if err != nil {
					return nil, fmt.Errorf("%w: set %s: %v", ErrInvalidArgument, pathString(req.GetPrefix(), u.GetPath()), err)
				}
				changes = append(changes, change{name: name, enabled: enabled, op: group.op, path: u.GetPath()})
			}
		}
		resp := &gpb.SetResponse{Prefix: req.GetPrefix()}
		for _, c := range changes {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := apply(c.name, c.enabled); err != nil {
				return nil, fmt.Errorf("gnmi: set %s: %w", pathString(req.GetPrefix(), c.path), err)
			}
			resp.Response = append(resp.Response, &gpb.UpdateResult{Path: c.path, Op: c.op})
		}
		resp.Timestamp = time.Now().UnixNano()
		return resp, nil
	}
}

// enabledPathName returns X for prefix+p = /interfaces/interface[name=X]/config/enabled.
func enabledPathName(prefix, p *gpb.Path) (string, error) {
	bad := func(why string) error {
		return fmt.Errorf("%w: set: path %s %s; only /interfaces/interface[name=NAME]/config/enabled can be set",
			ErrInvalidArgument, pathString(prefix, p), why)
	}
	if len(prefix.GetElement()) > 0 || len(p.GetElement()) > 0 {
		return "", bad("uses the deprecated element field")
	}
	for _, o := range []string{prefix.GetOrigin(), p.GetOrigin()} {
		if o != "" && o != originOpenConfig {
			return "", bad(fmt.Sprintf("has origin %q", o))
		}
	}
	full := joinPath(prefix, p).GetElem()
	want := []string{"interfaces", "interface", "config", "enabled"}
	if len(full) != len(want) {
		return "", bad("is not settable")
	}
	for i, e := range full {
		if e.GetName() != want[i] {
			return "", bad("is not settable")
		}
		if i != 1 && len(e.GetKey()) > 0 {
			return "", bad(fmt.Sprintf("has unexpected keys on %s", e.GetName()))
		}
	}
	keys := full[1].GetKey()
	name, ok := keys["name"]
	switch {
	case !ok || len(keys) != 1:
		return "", bad("must key interface by name only")
	case name == "" || name == "*":
		return "", bad("must name one interface")
	}
	return name, nil
}

// boolValue accepts bool_val and JSON (json_val, json_ietf_val) true/false.
func boolValue(v *gpb.TypedValue) (bool, error) {
	var raw []byte
	switch tv := v.GetValue().(type) {
	case *gpb.TypedValue_BoolVal:
		return tv.BoolVal, nil
	case *gpb.TypedValue_JsonVal:
		raw = tv.JsonVal
	case *gpb.TypedValue_JsonIetfVal:
		raw = tv.JsonIetfVal
	case nil:
		return false, fmt.Errorf("no value")
	default:
		return false, fmt.Errorf("value must be a boolean, got %T", tv)
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, fmt.Errorf("value must be a JSON boolean, got %q", raw)
	}
	return b, nil
}

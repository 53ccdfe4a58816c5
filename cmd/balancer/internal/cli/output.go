package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

// Machine-readable output (-o json, -o yaml):
//   - what the daemon answers (status, counters, slots, trace, locate,
//     config show, history, apply results) is the API response message in
//     protojson: proto field names (snake_case), every field present
//     (unset ones as 0, "", false, [] or null), 64-bit integers as
//     strings, times as RFC 3339 strings, durations as "0.000120s";
//   - the object lists (link, filter-group, balance-group, profile and
//     rule list) are the configuration's objects in the site model's JSON,
//     with the same keys as its YAML;
//   - port list and show are the CLI's port view (PortView).
// -o yaml is the same data as YAML.

var protoJSON = protojson.MarshalOptions{Multiline: true, Indent: "  ", UseProtoNames: true, EmitUnpopulated: true}

// structured reports whether the output is json or yaml.
func (a *app) structured() bool { return a.output != outTable }

// printProto writes m as JSON or YAML.
func (a *app) printProto(m proto.Message) error {
	b, err := protoJSON.Marshal(m)
	if err != nil {
		return fmt.Errorf("encoding the answer: %w", err)
	}
	return a.printJSONBytes(b)
}

// printValue writes v (a value with JSON tags) as JSON or YAML.
func (a *app) printValue(v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the answer: %w", err)
	}
	return a.printJSONBytes(b)
}

func (a *app) printJSONBytes(b []byte) error {
	if a.output == outYAML {
		y, err := jsonToYAML(b)
		if err != nil {
			return err
		}
		_, err = a.stdout.Write(y)
		return err
	}
	b = append(bytes.TrimRight(b, "\n"), '\n')
	_, err := a.stdout.Write(b)
	return err
}

// jsonToYAML re-writes a JSON document as block-style YAML, keeping the
// order of keys.
func jsonToYAML(b []byte) ([]byte, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(b, &n); err != nil {
		return nil, fmt.Errorf("encoding the answer as YAML: %w", err)
	}
	var plain func(*yaml.Node)
	plain = func(n *yaml.Node) {
		n.Style = 0
		if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && needsQuotes(n.Value) {
			n.Style = yaml.DoubleQuotedStyle
		}
		for _, c := range n.Content {
			plain(c)
		}
	}
	plain(&n)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return nil, fmt.Errorf("encoding the answer as YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// needsQuotes reports whether a string would read back as another type
// (a number, a bool, null) when written plain.
func needsQuotes(s string) bool {
	var v any
	if err := yaml.Unmarshal([]byte(s), &v); err != nil {
		return true
	}
	_, isStr := v.(string)
	return !isStr
}

// table starts a tab-aligned table on w.
func table(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
}

// row writes one tab-separated table row.
func row(w io.Writer, cols ...any) {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = fmt.Sprint(c)
		if parts[i] == "" {
			parts[i] = "-"
		}
	}
	fmt.Fprintln(w, strings.Join(parts, "\t"))
}

// TimeLayout is how times are printed (in local time).
const TimeLayout = "2006-01-02 15:04:05"

func fmtTime(ts *timestamppb.Timestamp) string {
	if ts == nil {
		return "-"
	}
	return ts.AsTime().Local().Format(TimeLayout)
}

// fmtAge gives how long before now ts was ("3m12s ago"), by the daemon's
// clock (now is its observation time).
func fmtAge(ts, now *timestamppb.Timestamp) string {
	if ts == nil {
		return "-"
	}
	if now == nil {
		return fmtTime(ts)
	}
	d := now.AsTime().Sub(ts.AsTime())
	if d < 0 {
		d = 0
	}
	return roundDur(d).String() + " ago"
}

func roundDur(d time.Duration) time.Duration {
	switch {
	case d >= time.Hour:
		return d.Round(time.Minute)
	case d >= time.Second:
		return d.Round(time.Second)
	case d >= time.Millisecond:
		return d.Round(time.Millisecond / 10)
	}
	return d.Round(time.Microsecond)
}

func fmtDur(d *durationpb.Duration) string {
	if d == nil {
		return "-"
	}
	return roundDur(d.AsDuration()).String()
}

// operState gives a port's oper state: up, down or unknown (state as
// the daemon reports it; up is the answer of a daemon that predates it).
func operState(state string, up bool) string {
	if state != "" {
		return state
	}
	return upDown(up)
}

// stale marks a state derived from the switch while it is not connected.
func stale(st *apiv1.Status, s string) string {
	if st.GetStale() && s != "" && s != "-" {
		return s + " (stale)"
	}
	return s
}

func upDown(b bool) string {
	if b {
		return "up"
	}
	return "down"
}

// plural gives "1 change", "2 changes".
func plural(n int64, word string) string { return countOf(n, word, word+"s") }

// countOf gives "1 modify", "2 modifies".
func countOf(n int64, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

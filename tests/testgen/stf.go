// Package testgen replays the test cases P4Testgen generates from the P4
// program on the software switch: each case's table entries are written
// through the P4Runtime schema (the names are the contract's, shared by
// the program, the P4Info and the switch), its input packet is sent and
// the output is compared with the expected packet.
//
// P4Testgen writes STF for both of its targets used here (Tofino and
// BMv2); the two differ only in quoting names. A case is
//
//	# comments (seed, date, coverage, traces)
//	add TABLE [PRIORITY] FIELD:VALUE ... ACTION(PARAM:VALUE,...)
//	setdefault TABLE ACTION(PARAM:VALUE,...)
//	packet PORT HEX
//	expect PORT HEX$        (none: the packet is dropped)
//
// where an exact VALUE is 0x-prefixed hex, a ternary one 0b-prefixed
// binary with * for don't-care bits, and an expected packet's hex has *
// for don't-care nibbles.
package testgen

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Case is one generated test case.
type Case struct {
	Name     string
	Coverage string   // P4Testgen's statement coverage after this case
	Traces   []string // the program path, as P4Testgen traced it
	Entries  []Entry
	// Registers are the register cells the case starts from (PTF cases
	// only; every other cell is 0, as on a fresh switch).
	Registers []RegisterCell
	InPort    uint32
	Packet    []byte
	// Expect is the packet expected out; nil: none (dropped).
	Expect *Expect
}

// Entry is one table entry of a case, or a table's default action.
type Entry struct {
	Default  bool
	Table    string
	Priority int32 // 0: none given
	Matches  []Match
	Action   string
	Args     []Arg
}

// Match is one key field of an entry, as P4Testgen wrote it.
// Mask, when set, is a ternary match's mask (a PTF case's; an STF case
// writes a ternary value in binary with * for don't-care bits).
type Match struct{ Field, Value, Mask string }

// Arg is one action parameter, as P4Testgen wrote it.
type Arg struct{ Param, Value string }

// Expect is the packet expected out of Port: Data where Mask is 0xF per
// nibble (0: don't care).
type Expect struct {
	Port       uint32
	Data, Mask []byte
}

// ParseSTF reads one case. Name names it in errors.
func ParseSTF(name string, r io.Reader) (*Case, error) {
	c := &Case{Name: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	line := 0
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, a...))
	}
	sawPacket := false
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case text == "":
			continue
		case strings.HasPrefix(text, "#"):
			body := strings.TrimSpace(strings.TrimPrefix(text, "#"))
			if v, ok := strings.CutPrefix(body, "Current statement coverage:"); ok {
				c.Coverage = strings.TrimSpace(v)
			} else if v, ok := strings.CutPrefix(body, "Current node coverage:"); ok {
				c.Coverage = strings.TrimSpace(v)
			} else if strings.HasPrefix(body, "[") {
				c.Traces = append(c.Traces, body)
			}
			continue
		}
		verb, rest, _ := strings.Cut(text, " ")
		switch verb {
		case "add", "setdefault":
			e, err := parseEntry(verb == "setdefault", rest)
			if err != nil {
				return nil, fail("%s: %v", verb, err)
			}
			c.Entries = append(c.Entries, e)
		case "packet":
			if sawPacket {
				return nil, fail("a second packet: one input packet per case")
			}
			port, data, err := parsePortHex(rest)
			if err != nil {
				return nil, fail("packet: %v", err)
			}
			c.InPort, sawPacket = port, true
			if c.Packet, err = hex.DecodeString(data); err != nil {
				return nil, fail("packet: %v", err)
			}
		case "expect":
			if !sawPacket {
				return nil, fail("expect before the packet")
			}
			port, data, err := parsePortHex(rest)
			if err != nil {
				return nil, fail("expect: %v", err)
			}
			if data == "" {
				// "expect PORT" alone: a clone expected with no content
				// (mirroring, which the program does not use).
				return nil, fail("expect without a packet is not supported")
			}
			if c.Expect != nil {
				return nil, fail("a second expected packet")
			}
			x, err := parseMasked(strings.TrimSuffix(data, "$"))
			if err != nil {
				return nil, fail("expect: %v", err)
			}
			x.Port = port
			c.Expect = x
		default:
			return nil, fail("unknown command %q", verb)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !sawPacket {
		return nil, fmt.Errorf("%s: no packet", name)
	}
	return c, nil
}

// parseEntry reads "TABLE [PRIORITY] FIELD:VALUE ... ACTION(ARGS)" (add)
// or "TABLE ACTION(ARGS)" (setdefault).
func parseEntry(def bool, s string) (Entry, error) {
	e := Entry{Default: def}
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return e, fmt.Errorf("no action call in %q", s)
	}
	head, args := s[:open], s[open+1:len(s)-1]
	fields := strings.Fields(head)
	if len(fields) < 2 {
		return e, fmt.Errorf("want a table and an action in %q", s)
	}
	e.Table, e.Action = unquote(fields[0]), unquote(fields[len(fields)-1])
	for i, f := range fields[1 : len(fields)-1] {
		if !strings.Contains(f, ":") {
			p, err := strconv.ParseInt(f, 10, 32)
			if err != nil || i != 0 {
				return e, fmt.Errorf("%q is neither a priority (right after the table) nor FIELD:VALUE", f)
			}
			e.Priority = int32(p)
			continue
		}
		k, v := splitLast(f)
		e.Matches = append(e.Matches, Match{Field: unquote(k), Value: v})
	}
	if def && len(e.Matches) > 0 {
		return e, fmt.Errorf("a default action takes no key")
	}
	if strings.TrimSpace(args) != "" {
		for _, a := range strings.Split(args, ",") {
			k, v := splitLast(strings.TrimSpace(a))
			if k == "" {
				return e, fmt.Errorf("argument %q is not PARAM:VALUE", a)
			}
			e.Args = append(e.Args, Arg{Param: unquote(k), Value: v})
		}
	}
	return e, nil
}

// splitLast splits "NAME:VALUE" at its last colon (names may hold none,
// values never do).
func splitLast(s string) (string, string) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", s
	}
	return s[:i], s[i+1:]
}

func unquote(s string) string { return strings.Trim(s, `"`) }

// parsePortHex reads "PORT [HEX]".
func parsePortHex(s string) (uint32, string, error) {
	f := strings.Fields(s)
	if len(f) == 0 || len(f) > 2 {
		return 0, "", fmt.Errorf("want PORT [HEX], got %q", s)
	}
	p, err := strconv.ParseUint(f[0], 10, 32)
	if err != nil {
		return 0, "", fmt.Errorf("port %q: %v", f[0], err)
	}
	if len(f) == 1 {
		return uint32(p), "", nil
	}
	return uint32(p), f[1], nil
}

// parseMasked reads hex with * for don't-care nibbles.
func parseMasked(s string) (*Expect, error) {
	if len(s)%2 != 0 {
		return nil, fmt.Errorf("odd number of hex digits (%d)", len(s))
	}
	x := &Expect{Data: make([]byte, len(s)/2), Mask: make([]byte, len(s)/2)}
	for i := 0; i < len(s); i++ {
		var v, m byte
		switch c := s[i]; {
		case c == '*':
		case c >= '0' && c <= '9':
			v, m = c-'0', 0xF
		case c >= 'a' && c <= 'f':
			v, m = c-'a'+10, 0xF
		case c >= 'A' && c <= 'F':
			v, m = c-'A'+10, 0xF
		default:
			return nil, fmt.Errorf("%q is not a hex digit or *", c)
		}
		shift := 4 * (1 - i%2)
		x.Data[i/2] |= v << shift
		x.Mask[i/2] |= m << shift
	}
	return x, nil
}

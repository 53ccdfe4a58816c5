package testgen

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// P4Testgen's PTF back end (Tofino target) writes every case of a run into
// one Python file, as classes Test1, Test2, ... of a BfRuntime test. It is
// the only back end of P4Testgen 1.2.5.16 that chooses register values: a
// case of the verdict profiles that needs a verdict cell or an evidence
// window in a given state starts from it (setRegisterValue), where the STF
// back end leaves the register unconstrained and the case is dropped. The
// parts read here, as the back end's template writes them:
//
//	class TestN(AbstractTest):
//	    # Current statement coverage: 0.33
//	    '''
//	    traces
//	    '''
//	    def setupCtrlPlane(self):
//	        self.setRegisterValue('REG', VALUE, INDEX)
//	        self.setRegisterValue('REG', [('REG.first', V), ('REG.second', V)], INDEX)
//	        self.overrideDefaultEntry(
//	            'TABLE',
//	            'ACTION',
//	            [
//	                gc.DataTuple('PARAM', VALUE),
//	            ]
//	        )
//	        self.insertTableEntry(
//	            'TABLE',
//	            [
//	                gc.KeyTuple('FIELD', VALUE),          exact
//	                gc.KeyTuple('FIELD', VALUE, MASK),    ternary
//	            ],
//	            'ACTION',
//	            [
//	                gc.DataTuple('PARAM', VALUE),
//	            ]
//	        )
//	    def sendPacket(self):
//	        ig_port = N
//	        pkt = b'\xHH...'
//	    def verifyPackets(self):
//	        eg_port = N                          (or pass: dropped)
//	        exp_pkt = b'\xHH...'
//	        exp_pkt.set_do_not_care(OFFSET_BITS, WIDTH_BITS)
//
// The template gives a ternary entry no priority; a case has one entry per
// table, so the replay's 1 serves.

// RegisterCell is one register cell a case starts from: the register's
// name and index, and its value, or its fields' values (a register of a
// pair, in the order P4Testgen wrote them: first, second).
type RegisterCell struct {
	Register string
	Index    uint32
	Fields   []Arg
}

var (
	ptfClass    = regexp.MustCompile(`^class (Test\d+)\(AbstractTest\):$`)
	ptfCoverage = regexp.MustCompile(`^# Current statement coverage: ([0-9.]+)$`)
	ptfRegister = regexp.MustCompile(`^self\.setRegisterValue\('([^']+)', (.+), (\d+)\)$`)
	ptfPair     = regexp.MustCompile(`\('([^']+)', (0x[0-9A-Fa-f]+|\d+)\)`)
	ptfKey      = regexp.MustCompile(`^gc\.KeyTuple\('([^']+)', (0x[0-9A-Fa-f]+|\d+)(?:, (0x[0-9A-Fa-f]+|\d+))?\),$`)
	ptfData     = regexp.MustCompile(`^gc\.DataTuple\('([^']+)', (0x[0-9A-Fa-f]+|\d+)\),$`)
	ptfName     = regexp.MustCompile(`^'([^']+)',$`)
	ptfPort     = regexp.MustCompile(`^(ig|eg)_port = (\d+)$`)
	ptfBytes    = regexp.MustCompile(`^(pkt|exp_pkt) = b'((?:\\x[0-9A-Fa-f]{2})*)'$`)
	ptfMask     = regexp.MustCompile(`^exp_pkt\.set_do_not_care\((\d+), (\d+)\)$`)
)

// ParsePTF reads every case of a PTF file P4Testgen wrote. Name (the
// file's) prefixes each case's name, and names the file in errors.
func ParsePTF(name string, r io.Reader) ([]*Case, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	line := 0
	fail := func(format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, a...))
	}
	var (
		out     []*Case
		c       *Case
		section string // the method being read
		inDoc   bool   // inside a class's trace docstring
		entry   *Entry // the table entry being read
		part    int    // of entry: 0 table, 1 keys, 2 action, 3 data
		masks   [][2]int
	)
	finish := func() error {
		if c == nil {
			return nil
		}
		if entry != nil {
			return fail("%s: table entry not closed", c.Name)
		}
		if c.Packet == nil {
			return fail("%s: no packet sent", c.Name)
		}
		if c.Expect != nil {
			if c.Expect.Data == nil {
				return fail("%s: an output port but no expected packet", c.Name)
			}
			c.Expect.Mask = make([]byte, len(c.Expect.Data))
			for i := range c.Expect.Mask {
				c.Expect.Mask[i] = 0xff
			}
			for _, m := range masks {
				for b := m[0]; b < m[0]+m[1]; b++ {
					if b/8 >= len(c.Expect.Mask) {
						return fail("%s: don't-care bits %d+%d beyond the %d-byte packet", c.Name, m[0], m[1], len(c.Expect.Data))
					}
					c.Expect.Mask[b/8] &^= 0x80 >> (b % 8)
				}
			}
		}
		out = append(out, c)
		c, masks = nil, nil
		return nil
	}
	for sc.Scan() {
		line++
		raw := sc.Text()
		text := strings.TrimSpace(raw)
		if m := ptfClass.FindStringSubmatch(raw); m != nil {
			if err := finish(); err != nil {
				return nil, err
			}
			c = &Case{Name: name + "/" + m[1]}
			section, inDoc = "", false
			continue
		}
		if c == nil {
			continue // the preamble and the abstract class
		}
		if text == "'''" {
			inDoc = !inDoc
			continue
		}
		if inDoc {
			c.Traces = append(c.Traces, text)
			continue
		}
		if m := ptfCoverage.FindStringSubmatch(text); m != nil {
			c.Coverage = m[1]
			continue
		}
		if strings.HasPrefix(text, "def ") {
			section = strings.TrimSuffix(strings.TrimPrefix(text, "def "), "(self):")
			continue
		}
		if text == "" || text == "pass" || strings.HasPrefix(text, "#") {
			continue
		}
		switch section {
		case "setupCtrlPlane":
			if err := ptfControlLine(c, text, &entry, &part); err != nil {
				return nil, fail("%s: %v", c.Name, err)
			}
		case "sendPacket":
			if m := ptfPort.FindStringSubmatch(text); m != nil && m[1] == "ig" {
				p, _ := strconv.ParseUint(m[2], 10, 32)
				c.InPort = uint32(p)
			} else if m := ptfBytes.FindStringSubmatch(text); m != nil && m[1] == "pkt" {
				c.Packet = ptfHex(m[2])
			} else if text != "send_packet(self, ig_port, pkt)" {
				return nil, fail("%s: unexpected %q in sendPacket", c.Name, text)
			}
		case "verifyPackets":
			if m := ptfPort.FindStringSubmatch(text); m != nil && m[1] == "eg" {
				p, _ := strconv.ParseUint(m[2], 10, 32)
				c.Expect = &Expect{Port: uint32(p)}
			} else if m := ptfBytes.FindStringSubmatch(text); m != nil && m[1] == "exp_pkt" && c.Expect != nil {
				c.Expect.Data = ptfHex(m[2])
			} else if m := ptfMask.FindStringSubmatch(text); m != nil {
				off, _ := strconv.Atoi(m[1])
				width, _ := strconv.Atoi(m[2])
				masks = append(masks, [2]int{off, width})
			} else if text != "exp_pkt = Mask(exp_pkt)" && text != "verify_packet(self, exp_pkt, eg_port)" {
				return nil, fail("%s: unexpected %q in verifyPackets", c.Name, text)
			}
		case "runTest":
		default:
			return nil, fail("%s: unexpected %q in %s", c.Name, text, section)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no test case", name)
	}
	return out, nil
}

// ptfControlLine reads one line of setupCtrlPlane into c.
func ptfControlLine(c *Case, text string, entry **Entry, part *int) error {
	if m := ptfRegister.FindStringSubmatch(text); m != nil {
		ix, err := strconv.ParseUint(m[3], 10, 32)
		if err != nil {
			return err
		}
		cell := RegisterCell{Register: m[1], Index: uint32(ix)}
		if strings.HasPrefix(m[2], "[") {
			for _, f := range ptfPair.FindAllStringSubmatch(m[2], -1) {
				cell.Fields = append(cell.Fields, Arg{Param: strings.TrimPrefix(f[1], m[1]+"."), Value: f[2]})
			}
			if len(cell.Fields) == 0 {
				return fmt.Errorf("register %s: no field in %s", m[1], m[2])
			}
		} else {
			cell.Fields = []Arg{{Value: m[2]}}
		}
		c.Registers = append(c.Registers, cell)
		return nil
	}
	e := *entry
	switch {
	case text == "self.insertTableEntry(" || text == "self.overrideDefaultEntry(":
		if e != nil {
			return fmt.Errorf("%q inside another entry", text)
		}
		*entry = &Entry{Default: text == "self.overrideDefaultEntry("}
		*part = 0
		return nil
	case e == nil:
		return fmt.Errorf("unexpected %q in setupCtrlPlane", text)
	case text == ")":
		if e.Table == "" || e.Action == "" {
			return fmt.Errorf("table entry without a table or an action")
		}
		c.Entries = append(c.Entries, *e)
		*entry = nil
		return nil
	case text == "[" || text == "],":
		if text == "[" && *part == 0 && !e.Default {
			*part = 1 // the keys
		} else if text == "[" {
			*part = 3 // the action data
		}
		return nil
	case text == "]":
		return nil
	}
	if m := ptfName.FindStringSubmatch(text); m != nil {
		if e.Table == "" {
			e.Table = m[1]
		} else {
			e.Action = m[1]
		}
		return nil
	}
	if text == "None," {
		return fmt.Errorf("table %s: an action profile member, which the program has none of", e.Table)
	}
	if m := ptfKey.FindStringSubmatch(text); m != nil && *part == 1 {
		mt := Match{Field: m[1], Value: m[2]}
		if m[3] != "" {
			mt.Mask = m[3]
		}
		e.Matches = append(e.Matches, mt)
		return nil
	}
	if m := ptfData.FindStringSubmatch(text); m != nil && *part == 3 {
		e.Args = append(e.Args, Arg{Param: m[1], Value: m[2]})
		return nil
	}
	return fmt.Errorf("table %s: unexpected %q", e.Table, text)
}

// ptfHex is the bytes of a Python literal of \xHH escapes.
func ptfHex(s string) []byte {
	out := make([]byte, 0, len(s)/4)
	for i := 0; i+4 <= len(s); i += 4 {
		v, _ := strconv.ParseUint(s[i+2:i+4], 16, 8)
		out = append(out, byte(v))
	}
	return out
}

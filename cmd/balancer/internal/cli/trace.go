package cli

import (
	"encoding/hex"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

func newTraceCmd(a *app) *cobra.Command {
	var req apiv1.TraceRequest
	var vlans, mpls []uint
	var proto, ethertype string
	var sport, dport uint16
	cmd := &cobra.Command{
		Use:   "trace --link L --side lan|wan [--vlan 100,200] [--mpls 16,17] [--pppoe] --src A --dst B --proto P [--sport N --dport N]",
		Short: "Trace a described packet through the configured pipeline",
		Long: `Describe a packet entering the switch on one side of a link, and see what the
configured pipeline does with it, step by step: the flow rule it hits, the
balance group, the symmetric hash and slot, the filter group and core it is
sent to, the output port, and the 4-byte core header the filter receives
(TPID, link id, core id). The filters' current state counts: a packet for a
failed filter shows its software bypass, drop or rebalanced target.

The packet is built from the flags: Ethernet, the VLAN tags (outermost
first; 0x8100, the outer one 0x88a8 when there are two or more), the MPLS
labels, a PPPoE session header, then IPv4 or IPv6 and TCP/UDP ports. Leave
--src and --dst out (and give --ethertype) for a non-IP packet.`,
		Example: `  # a TCP session on VLAN 100, subscriber side
  balancer trace --link L1 --side lan --vlan 100 --src 10.1.2.3 --dst 192.0.2.10 --proto tcp --sport 40000 --dport 443
  # BGP: should hit the bypass rule
  balancer trace --link L1 --side wan --src 192.0.2.1 --dst 192.0.2.2 --proto tcp --dport 179
  # QinQ + MPLS + PPPoE, IPv6
  balancer trace --link L2 --side lan --vlan 200,10 --mpls 16,17 --pppoe --src 2001:db8::1 --dst 2001:db8:1::1 --proto udp
  # non-IP (ARP)
  balancer trace --link L1 --side lan --ethertype 0x0806`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			side := strings.ToLower(req.Side)
			if side != "lan" && side != "wan" {
				return usagef("--side %q: want lan or wan (the side of the link port the packet enters on)", req.Side)
			}
			req.Side = side
			for _, v := range vlans {
				req.Vlans = append(req.Vlans, uint32(v))
			}
			for _, l := range mpls {
				req.Mpls = append(req.Mpls, uint32(l))
			}
			if (req.Src == "") != (req.Dst == "") {
				return usagef("give both --src and --dst, or neither for a non-IP packet")
			}
			if req.Src != "" {
				src, err := netip.ParseAddr(req.Src)
				if err != nil {
					return usagef("--src %q is not an IPv4 or IPv6 address", req.Src)
				}
				dst, err := netip.ParseAddr(req.Dst)
				if err != nil {
					return usagef("--dst %q is not an IPv4 or IPv6 address", req.Dst)
				}
				if src.Unmap().Is4() != dst.Unmap().Is4() {
					return usagef("--src %s and --dst %s: give two IPv4 or two IPv6 addresses", req.Src, req.Dst)
				}
			}
			if req.Src != "" && proto == "" {
				return usagef("--proto is missing: give the IP protocol, like tcp, udp or 47")
			}
			if proto != "" {
				p, err := config.ParseIPProto(proto)
				if err != nil {
					return usagef("--proto: %v", err)
				}
				req.Proto = uint32(p)
			}
			if (sport != 0 || dport != 0) && !config.IPProto(req.Proto).HasPorts() {
				return usagef("--sport and --dport need --proto tcp or udp")
			}
			req.SrcPort, req.DstPort = uint32(sport), uint32(dport)
			if ethertype != "" {
				et, err := parseTPID("ethertype", ethertype)
				if err != nil {
					return err
				}
				req.Ethertype = uint32(et)
			}
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			res, err := cl.Trace(ctx, &req)
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printProto(res)
			}
			writeTrace(a.stdout, &req, res)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&req.Link, "link", "", "the link the packet enters on")
	f.StringVar(&req.Side, "side", "", "lan or wan: the link port it enters on")
	f.UintSliceVar(&vlans, "vlan", nil, "VLAN ids, outermost first (up to 3)")
	f.UintSliceVar(&mpls, "mpls", nil, "MPLS labels, top first (up to 8)")
	f.BoolVar(&req.Pppoe, "pppoe", false, "add a PPPoE session header")
	f.StringVar(&req.Src, "src", "", "source IPv4 or IPv6 address")
	f.StringVar(&req.Dst, "dst", "", "destination address")
	f.StringVar(&proto, "proto", "", "IP protocol: tcp, udp, icmp, ... or a number")
	f.Uint16Var(&sport, "sport", 0, "TCP/UDP source port")
	f.Uint16Var(&dport, "dport", 0, "TCP/UDP destination port")
	f.StringVar(&req.SrcMac, "src-mac", "", "source MAC (default: a fixed one)")
	f.StringVar(&req.DstMac, "dst-mac", "", "destination MAC (default: a fixed one)")
	f.StringVar(&ethertype, "ethertype", "", "ethertype of a non-IP packet, e.g. 0x0806")
	_ = cmd.MarkFlagRequired("link")
	_ = cmd.MarkFlagRequired("side")
	return cmd
}

// describePacket writes the traced packet in one line.
func describePacket(r *apiv1.TraceRequest) string {
	var parts []string
	for i, v := range r.GetVlans() {
		if i == 0 {
			parts = append(parts, fmt.Sprintf("vlan %d", v))
		} else {
			parts = append(parts, fmt.Sprintf("inner vlan %d", v))
		}
	}
	if len(r.GetMpls()) > 0 {
		ls := make([]string, len(r.GetMpls()))
		for i, l := range r.GetMpls() {
			ls[i] = fmt.Sprint(l)
		}
		parts = append(parts, "mpls "+strings.Join(ls, "/"))
	}
	if r.GetPppoe() {
		parts = append(parts, "pppoe")
	}
	if r.GetSrc() != "" {
		p := config.IPProto(r.GetProto())
		ip := fmt.Sprintf("%s -> %s %s", r.GetSrc(), r.GetDst(), p)
		if p.HasPorts() {
			ip = fmt.Sprintf("%s -> %s %s", hostPort(r.GetSrc(), r.GetSrcPort()), hostPort(r.GetDst(), r.GetDstPort()), p)
		}
		parts = append(parts, ip)
	} else {
		parts = append(parts, fmt.Sprintf("non-IP, ethertype 0x%04X", r.GetEthertype()))
	}
	return strings.Join(parts, ", ")
}

func hostPort(addr string, port uint32) string {
	if a, err := netip.ParseAddr(addr); err == nil {
		return netip.AddrPortFrom(a, uint16(port)).String()
	}
	return fmt.Sprintf("%s:%d", addr, port)
}

// coreHeader decodes the 4-byte core header: TPID:16 | link_id:6 | core_id:10.
func coreHeader(hexText string) string {
	clean := strings.NewReplacer(" ", "", ":", "", "0x", "").Replace(strings.ToLower(hexText))
	b, err := hex.DecodeString(clean)
	h, ok := wire.ParseCoreHeader(b)
	if err != nil || !ok || len(b) != wire.CoreHeaderLen {
		return hexText
	}
	return fmt.Sprintf("%02x %02x %02x %02x (TPID 0x%04X, link id %d, core %d)", b[0], b[1], b[2], b[3], h.TPID, h.Link, h.Core)
}

func writeTrace(w io.Writer, req *apiv1.TraceRequest, r *apiv1.TraceResult) {
	fmt.Fprintf(w, "packet: link %s, %s port: %s\n", req.GetLink(), strings.ToUpper(req.GetSide()), describePacket(req))
	for i, s := range r.GetSteps() {
		fmt.Fprintf(w, "  %d. %s\n", i+1, s)
	}
	fmt.Fprintln(w)
	t := table(w)
	rule := r.GetRule()
	if rule == "" {
		rule = "(none: default bypass)"
	}
	row(t, "rule:", rule)
	row(t, "action:", r.GetAction())
	if r.GetBalanceGroup() != "" {
		row(t, "balance group:", r.GetBalanceGroup())
		row(t, "hash:", fmt.Sprintf("0x%08x", r.GetHash()))
		row(t, "slot:", r.GetSlot())
	}
	if r.GetFilterGroup() != "" {
		row(t, "filter group:", r.GetFilterGroup())
		row(t, "core:", r.GetCore())
	}
	switch r.GetSession() {
	case "held":
		row(t, "session:", fmt.Sprintf("held by the session memory on %s core %d (its slot points to %s core %d)",
			r.GetFilterGroup(), r.GetCore(), r.GetSlotFilterGroup(), r.GetSlotCore()))
	case "not held":
		row(t, "session:", "not held by the session memory (its slot decides)")
	}
	out := r.GetOutPort()
	if out != "" {
		out = fmt.Sprintf("%s (data-plane port %d)", out, r.GetOutPortNumber())
	}
	row(t, "output port:", out)
	row(t, "verdict:", r.GetVerdict())
	if r.GetHeaderHex() != "" {
		row(t, "core header:", coreHeader(r.GetHeaderHex()))
	}
	t.Flush()
}

func newLocateCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "locate SRC DST PROTO",
		Short: "Find the filter and core a session lands on",
		Long: `Say which filter group and which core a session (source address, destination
address, IP protocol) lands on, in every balance group, and whether it is
there now or elsewhere because of a failure (software bypass, drop, or
rebalanced to another filter and core). Source and destination may be given
either way round: the hash is symmetric, both directions land together.

With the session memory on, a session the switch holds is placed where its
entry keeps it (SESSION: held, with where its slot points now), not where
its slot points.

No need to search every filter for a subscriber's session: ask here, then
look on that filter's core.`,
		Example: `  balancer locate 10.1.2.3 192.0.2.10 tcp
  balancer locate 2001:db8::1 2001:db8:1::1 udp
  balancer locate 10.1.2.3 192.0.2.10 47 -o json`,
		Args: exactArgs("SRC", "DST", "PROTO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			for i, s := range args[:2] {
				if _, err := netip.ParseAddr(s); err != nil {
					return usagef("%s %q is not an IPv4 or IPv6 address", []string{"SRC", "DST"}[i], s)
				}
			}
			p, err := config.ParseIPProto(args[2])
			if err != nil {
				return usagef("PROTO: %v", err)
			}
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			res, err := cl.Locate(ctx, &apiv1.LocateRequest{Src: args[0], Dst: args[1], Proto: uint32(p)})
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printProto(res)
			}
			fmt.Fprintf(a.stdout, "session %s <-> %s %s\n", args[0], args[1], p)
			if len(res.GetPlacements()) == 0 {
				fmt.Fprintln(a.stdout, "no balance groups defined: the session bypasses the filters")
				return nil
			}
			writePlacements(a.stdout, res.GetPlacements())
			return nil
		},
	}
}

// writePlacements is locate's table. With the session memory on, a
// SESSION column says whether the switch holds the session (its filter
// group and core are then its entry's, its slot's beside), and a line
// below says where that was read when it was not the switch's table.
func writePlacements(w io.Writer, ps []*apiv1.Placement) {
	memory := false
	for _, pl := range ps {
		memory = memory || pl.GetSession() != ""
	}
	t := table(w)
	hdr := []any{"BALANCE GROUP", "HASH", "SLOT", "FILTER GROUP", "CORE", "PORTS", "NOW"}
	if memory {
		hdr = append(hdr, "SESSION")
	}
	row(t, hdr...)
	var from []string
	for _, pl := range ps {
		cells := []any{pl.GetBalanceGroup(), fmt.Sprintf("0x%08x", pl.GetHash()), pl.GetSlot(), pl.GetFilterGroup(),
			pl.GetCore(), pl.GetLanPort() + "/" + pl.GetWanPort(), pl.GetEffective()}
		if memory {
			s := pl.GetSession()
			if s == "held" {
				s = fmt.Sprintf("held (its slot points to %s core %d)", pl.GetSlotFilterGroup(), pl.GetSlotCore())
			}
			cells = append(cells, s)
			if f := pl.GetSessionFrom(); f != "" && f != "the switch's table" && !slices.Contains(from, f) {
				from = append(from, f)
			}
		}
		row(t, cells...)
	}
	t.Flush()
	for _, f := range from {
		fmt.Fprintf(w, "session memory read from %s\n", f)
	}
}

#!/usr/bin/python3
"""Mininet topology: the DPI traffic balancer on BMv2 or the software switch.

    sudo bmv2/topo.py [--switch bmv2|sim] [--links N] [--filters M] [--cores C]
                      [--run-dir DIR] [--daemon bin/balancer]
                      [--selftest SECONDS [--failover]]

One switch, s1, in a network namespace of its own, with its P4Runtime
server on a unix socket, DIR/p4rt.sock:

  --switch bmv2     simple_switch_grpc (the default), through bmv2/run-bmv2.sh,
                    with the compiled balancer program and CPU port 255
  --switch sim      the balancer's software switch, "balancer sim" (the
                    binary --balancer names, default the --daemon binary,
                    else balancer on PATH, else bin/balancer), its ports on
                    the Mininet interfaces (AF_PACKET); it serves gNMI on
                    the same socket, so the daemon sees port status too

Around it:

  l<i>lan, l<i>wan  the two ends of operator link L<i>: hosts 10.<i>.0.1 and
                    10.<i>.0.2, so "l1lan ping l1wan" crosses the balancer
                    (ARP is non-IP: bypassed; IP goes through a filter)
  f<j>              a filter emulator between the switch ports of filter
                    group F<j>: a forwarder (this script, --forward) that
                    passes every frame LAN<->WAN unchanged and counts the
                    link and core ids of the core headers it sees
                    (DIR/f<j>.json, its PID in DIR/f<j>.pid); or a Linux
                    bridge with --filter bridge

Ports follow platform bmv2 (platform sim for the software switch; both
number ports alike): link L<i> is LAN P<2i> / WAN P<2i-1>, filter F<j>
LAN P<2N+2j> / WAN P<2N+2j-1>, and front-panel port p is data-plane port
p*10 (switch interface s1-eth<p*10>). The matching site configuration is
written to DIR/site.yaml. Run the daemon against it, in another terminal:

    balancer daemon --config DIR/site.yaml --state-dir DIR/state \\
        --socket DIR/balancer.sock --switch unix://DIR/p4rt.sock --switch-gnmi ""

(with --switch sim, --switch-gnmi unix://DIR/p4rt.sock), or give --daemon
PATH to have this script start (and stop) it. BMv2 serves no gNMI: filter
failures are seen by keep-alive loss only.

--selftest S waits up to S seconds (with --daemon, first until the daemon
has every filter in service) for UDP datagrams to cross every link
LAN->WAN and their echoes WAN->LAN, checks that the filters saw them with
their link's id, both directions on the same filter and core, and that
keep-alives crossed every filter, prints the result and exits (0 = pass)
instead of opening the Mininet CLI. With --failover (and --daemon, whose
"balancer status" it reads) it then kills the filter that carries L1
(freezes its forwarder, or takes its bridge down), checks that the daemon
puts it in software bypass and that every link still passes traffic,
revives it and checks that it is back in service and carries L1 again.

Everything is removed when the script ends (net.stop()). Never run Mininet's
global cleanup (mn -c) on a shared machine: it kills processes and deletes
interfaces by name pattern, whoever made them.
"""

import argparse
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUN_BMV2 = os.path.join(HERE, "run-bmv2.sh")

CORE_TPID = 0x88B5  # core header (docs/dataplane.md), default
KEEPALIVE = 0x88B6  # keep-alive EtherType, default
ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4


# ---- the filter emulator (runs inside a filter host) -------------------------

def forward(lan, wan, stats_path):
    """Pass frames between interfaces lan and wan unchanged; count core
    headers by (direction, link, core) and keep-alives; write the counts to
    stats_path every second and on SIGTERM."""
    socks = {}
    for name in (lan, wan):
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        s.bind((name, ETH_P_ALL))
        socks[name] = s
    peer = {lan: wan, wan: lan}
    lock = threading.Lock()
    counts = {"keepalives": 0, "frames": 0, "cores": {}}
    stop = threading.Event()

    def dump():
        with lock:
            data = json.dumps(counts, sort_keys=True)
        tmp = stats_path + ".tmp"
        with open(tmp, "w") as f:
            f.write(data)
        os.replace(tmp, stats_path)

    def pump(src):
        out = socks[peer[src]]
        side = "lan-to-wan" if src == lan else "wan-to-lan"
        while not stop.is_set():
            try:
                frame, addr = socks[src].recvfrom(65535)
            except OSError:
                return
            if addr[2] == PACKET_OUTGOING or len(frame) < 14:
                continue  # our own transmissions
            etype = struct.unpack("!H", frame[12:14])[0]
            with lock:
                counts["frames"] += 1
                if etype == KEEPALIVE:
                    counts["keepalives"] += 1
                elif etype == CORE_TPID and len(frame) >= 16:
                    tag = struct.unpack("!H", frame[14:16])[0]
                    k = "%s link %d core %d flow %s" % (side, tag >> 10, tag & 0x3FF, flow_key(frame[16:]))
                    counts["cores"][k] = counts["cores"].get(k, 0) + 1
            try:
                out.send(frame)
            except OSError:
                pass  # the other side is down: lost, as on a wire

    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    for name in (lan, wan):
        threading.Thread(target=pump, args=(name,), daemon=True).start()
    while not stop.wait(1.0):
        dump()
    dump()


# ---- a UDP echo for the self-test (runs inside the link hosts) ----------------

def udp_echo(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("0.0.0.0", port))
    print("listening", flush=True)
    while True:
        data, peer = s.recvfrom(2048)
        s.sendto(data, peer)


def udp_probe(dst, port, count):
    """Send count datagrams to dst:port and wait for each echo; print how
    many came back. Exit status 0 when all did."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(1.0)
    back = 0
    for i in range(count):
        msg = b"balancer selftest %d" % i
        s.sendto(msg, (dst, port))
        try:
            data, _ = s.recvfrom(2048)
            back += data == msg
        except socket.timeout:
            pass
    print("%d/%d echoed" % (back, count))
    return 0 if back == count else 1


# ---- the topology ------------------------------------------------------------

def site_yaml(links, filters, cores, interval, platform="bmv2"):
    out = ["# Written by bmv2/topo.py: the site of its Mininet topology.",
           "site: mininet",
           "platform: %s" % platform,
           "ports:"]
    for p in range(1, 2 * (links + filters) + 1):
        out.append("  - {port: %d, speed: 100G}" % p)
    out.append("links:")
    for i in range(1, links + 1):
        out.append("  - {name: L%d, lan: P%d, wan: P%d}" % (i, 2 * i, 2 * i - 1))
    out.append("filter_groups:")
    members = []
    for j in range(1, filters + 1):
        p = 2 * links + 2 * j
        out.append("  - {name: F%d, lan: P%d, wan: P%d, cores: %d}" % (j, p, p - 1, cores))
        members.append("F%d" % j)
    out += ["profiles:",
            "  - {name: lab, initial_delay: 1s, interval: %dms, loss_threshold: 3, recovery_threshold: 3,"
            " min_active: 1, failure_action: bypass}" % interval,
            "balance_groups:",
            "  - {name: G, members: [%s], profile: lab, slot_bits: 8}" % ", ".join(members),
            "rules:",
            "  - {name: bgp, priority: 1000, match: {proto: tcp, l4_port: 179}, action: bypass}",
            "  - {name: everything, priority: 10, action: balance G}",
            ""]
    return "\n".join(out)


def build(args):
    # Imported here: the forwarder runs where Mininet may not be installed.
    from mininet.net import Mininet
    from mininet.node import Host, Switch
    from mininet.topo import Topo

    run_dir = args.run_dir

    class ProcSwitch(Switch):
        """A switch that is one process in a network namespace of its own,
        serving P4Runtime on DIR/p4rt.sock; ended by its PID."""

        def __init__(self, name, **params):
            params["inNamespace"] = True
            Switch.__init__(self, name, **params)
            self.proc = None

        def ports_and_socket(self):
            """Returns ["PORT=IFACE", ...] and the socket path (removed if
            left over from an earlier run)."""
            ports = []
            for intf in self.intfList():
                if intf.name == "lo":
                    continue
                self.cmd("sysctl -qw net.ipv6.conf.%s.disable_ipv6=1" % intf.name)
                # The switch forwards what it reads: no offloads.
                self.cmd("ethtool -K %s tx off rx off >/dev/null 2>&1" % intf.name)
                ports.append("%d=%s" % (self.ports[intf], intf.name))
            sock = os.path.join(run_dir, "p4rt.sock")
            if os.path.exists(sock):
                os.remove(sock)
            return ports, sock

        def stop(self, deleteIntfs=True):
            if self.proc and self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            Switch.stop(self, deleteIntfs)

    class BMv2Switch(ProcSwitch):
        """simple_switch_grpc, started by bmv2/run-bmv2.sh."""

        def start(self, controllers):
            ports, sock = self.ports_and_socket()
            cmd = [RUN_BMV2, "--grpc", "unix:" + sock, "--log", os.path.join(run_dir, "bmv2.log"),
                   "--log-level", args.bmv2_log_level] + ports
            self.proc = self.popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)

    class SimSwitch(ProcSwitch):
        """The software switch, "balancer sim", with its ports on the
        Mininet interfaces; P4Runtime and gNMI on the unix socket."""

        def start(self, controllers):
            ports, sock = self.ports_and_socket()
            cmd = [args.balancer, "sim", "--p4rt", "unix://" + sock, "--gnmi", "", "--log-level", "warn"]
            for p in ports:
                cmd += ["--port", p]
            log = open(os.path.join(run_dir, "sim.log"), "w")
            self.proc = self.popen(cmd, stdout=log, stderr=subprocess.STDOUT)
            log.close()

    class BalancerTopo(Topo):
        def build(self):
            s1 = self.addSwitch("s1", cls=SimSwitch if args.switch == "sim" else BMv2Switch)
            for i in range(1, args.links + 1):
                lan = self.addHost("l%dlan" % i, ip="10.%d.0.1/24" % i, mac="02:00:00:00:%02x:01" % i)
                wan = self.addHost("l%dwan" % i, ip="10.%d.0.2/24" % i, mac="02:00:00:00:%02x:02" % i)
                self.addLink(lan, s1, port2=2 * i * 10)
                self.addLink(wan, s1, port2=(2 * i - 1) * 10)
            for j in range(1, args.filters + 1):
                p = 2 * args.links + 2 * j
                f = self.addHost("f%d" % j, ip=None)
                self.addLink(f, s1, intfName1="f%d-lan" % j, port2=p * 10)
                self.addLink(f, s1, intfName1="f%d-wan" % j, port2=(p - 1) * 10)

    # Mininet.init() would raise host-wide limits (fs.file-max, kernel.pty.max,
    # net.core buffers) for large topologies: not needed for a few hosts, and
    # not ours to change on a shared machine. main() checked for root.
    Mininet.inited = True
    net = Mininet(topo=BalancerTopo(), controller=None, host=Host, autoSetMacs=False, waitConnected=False)
    return net


def start_filters(net, args):
    procs = []
    for j in range(1, args.filters + 1):
        h = net.get("f%d" % j)
        lan, wan = "f%d-lan" % j, "f%d-wan" % j
        for ifc in (lan, wan):
            h.cmd("ip addr flush dev %s" % ifc)
        if args.filter == "bridge":
            h.cmd("ip link add br0 type bridge ageing_time 0 && sysctl -qw net.ipv6.conf.br0.disable_ipv6=1 && "
                  "ip link set %s master br0 && ip link set %s master br0 && ip link set br0 up" % (lan, wan))
            continue
        stats = os.path.join(args.run_dir, "f%d.json" % j)
        p = h.popen([sys.executable, os.path.abspath(__file__), "--forward", lan, wan, stats],
                    stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        # For kill -STOP / -CONT $(cat DIR/f1.pid): freeze and resume a filter.
        with open(os.path.join(args.run_dir, "f%d.pid" % j), "w") as f:
            f.write("%d\n" % p.pid)
        procs.append(p)
    return procs


def flow_key(inner):
    """The session of the frame after the core header (its EtherType on):
    the two IP addresses in order and the protocol, the same both ways."""
    etype = struct.unpack("!H", inner[0:2])[0] if len(inner) >= 2 else 0
    ip = inner[2:]
    if etype == 0x0800 and len(ip) >= 20:
        a, b, proto = socket.inet_ntop(socket.AF_INET, ip[12:16]), socket.inet_ntop(socket.AF_INET, ip[16:20]), ip[9]
    elif etype == 0x86DD and len(ip) >= 40:
        a, b, proto = socket.inet_ntop(socket.AF_INET6, ip[8:24]), socket.inet_ntop(socket.AF_INET6, ip[24:40]), ip[6]
    else:
        return "ethertype-0x%04x" % etype
    return "%s/%s/%d" % (min(a, b), max(a, b), proto)


def read_counts(args, j):
    """The counts forwarder F<j> last wrote, or None."""
    try:
        with open(os.path.join(args.run_dir, "f%d.json" % j)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def selftest(net, args):
    """Sends UDP datagrams across every link, LAN to WAN and the echoes back,
    until they all pass (the daemon programs the switch meanwhile), then
    checks what the filters saw."""
    deadline = time.time() + args.selftest
    ok = True
    if args.daemon:
        # Until a filter is in service the switch bypasses it: probe after.
        for j in range(1, args.filters + 1):
            passed, st = wait_filter(args, "F%d" % j, "up", "forward", deadline)
            print("selftest: F%d in service: %s (%s)" % (
                j, "ok" if passed else "FAILED", st and "%s/%s" % (st.get("state"), st.get("effective"))), flush=True)
            ok = ok and passed
    ok = probe_links(net, args, deadline, "through the balancer") and ok
    if args.filter == "bridge":
        return ok

    def missing_links(counts):
        """Links whose frames no filter has counted in both directions
        (link ids are 0, 1, ... in configuration order)."""
        seen = set()
        for c in counts.values():
            for k in (c or {}).get("cores", {}):
                side, rest = k.split(" link ")
                seen.add((side, int(rest.split()[0])))
        return [i for i in range(1, args.links + 1)
                if ("lan-to-wan", i - 1) not in seen or ("wan-to-lan", i - 1) not in seen]

    # The forwarders write their counts every second; keep-alives start
    # after the profile's initial delay. Without the daemon's word, the
    # first datagrams may have bypassed filters not yet in service: send
    # more until a filter counts them.
    while True:
        counts = {j: read_counts(args, j) for j in range(1, args.filters + 1)}
        missing = missing_links(counts)
        keepalives = all(c and c["keepalives"] > 0 for c in counts.values())
        if (not missing and keepalives) or time.time() > deadline:
            break
        if missing:
            probe_links(net, args, deadline, "again", links=missing, quiet=True)
        time.sleep(1.0)
    for j, c in sorted(counts.items()):
        if c is None:
            print("selftest: F%d: no counts" % j)
            ok = False
            continue
        print("selftest: F%d: %d keep-alives passed, core headers seen: %s" % (j, c["keepalives"], c["cores"]))
        ok = ok and c["keepalives"] > 0
    for i in missing:
        print("selftest: no filter saw frames of L%d (link id %d) both ways" % (i, i - 1))
        ok = False
    if args.filter != "bridge":
        ok = ping_links(net, args) and ok
    # Both directions of a session land on the same filter and core.
    # A flow seen one way only (a host's IPv6 router solicitation, say) is
    # no session and is left out; but the probes' echoes and the pings are
    # sessions, so a link with no flow seen both ways proves nothing and
    # fails.
    for i in range(1, args.links + 1):
        flows = {}
        for j, c in counts.items():
            for k in (c or {}).get("cores", {}):
                side, rest = k.split(" link ")
                words = rest.split()
                link, core, flow = int(words[0]), int(words[2]), " ".join(words[4:])
                if link == i - 1:
                    flows.setdefault(flow, {}).setdefault(side, set()).add((j, core))
        two_way = [flow for flow, ways in flows.items() if len(ways) == 2]
        if not two_way:
            print("selftest: L%d: no session seen both ways by the filters (%d flows one way only): symmetry not shown" % (i, len(flows)))
            ok = False
        for flow, ways in sorted(flows.items()):
            if len(ways) == 2 and ways["lan-to-wan"] != ways["wan-to-lan"]:
                print("selftest: L%d flow %s: LAN->WAN on (filter, core) %s but WAN->LAN on %s" % (
                    i, flow, sorted(ways["lan-to-wan"]), sorted(ways["wan-to-lan"])))
                ok = False
    return ok


def set_filter(net, args, j, alive):
    """Kills (alive False) or revives filter F<j>: freezes or resumes its
    forwarder, or takes its bridge down or up."""
    if args.filter == "bridge":
        net.get("f%d" % j).cmd("ip link set br0 %s" % ("up" if alive else "down"))
        return
    with open(os.path.join(args.run_dir, "f%d.pid" % j)) as f:
        os.kill(int(f.read()), signal.SIGCONT if alive else signal.SIGSTOP)


def filter_status(args, name):
    """The daemon's view of filter group name ("balancer status"), or None."""
    try:
        out = subprocess.run([args.daemon, "status", "-o", "json", "--socket",
                              os.path.join(args.run_dir, "balancer.sock")],
                             capture_output=True, text=True, timeout=10)
        for f in json.loads(out.stdout).get("filters", []):
            if f.get("name") == name:
                return f
    except (OSError, ValueError, subprocess.TimeoutExpired):
        pass
    return None


def wait_filter(args, name, state, effective, deadline):
    """Polls the daemon until filter group name is in state with that
    effective action; returns (ok, the last status seen)."""
    st = None
    while time.time() < deadline:
        st = filter_status(args, name)
        if st and st.get("state") == state and st.get("effective") == effective:
            return True, st
        time.sleep(0.1)
    return False, st


def probe_links(net, args, deadline, what, links=None, quiet=False):
    """UDP datagrams across every link (or those of links) LAN->WAN and
    back until all pass."""
    ok = True
    links = links or range(1, args.links + 1)
    me = [sys.executable, os.path.abspath(__file__)]
    echoes = [net.get("l%dwan" % i).popen(me + ["--udp-echo", "7777"], stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT, text=True) for i in links]
    try:
        # A datagram before the echo listens would draw an ICMP error,
        # a packet of another session (protocol) through the balancer.
        for p in echoes:
            p.stdout.readline()
        for i in links:
            lan = net.get("l%dlan" % i)
            passed, out = False, ""
            while time.time() < deadline:
                out = lan.cmd(" ".join(me + ["--udp-probe", "10.%d.0.2" % i, "7777", "5"])).strip()
                if out.startswith("5/5"):
                    passed = True
                    break
                time.sleep(0.5)
            if not quiet or not passed:
                print("selftest: L%d UDP LAN->WAN and back %s: %s (%s)" % (i, what, "ok" if passed else "FAILED", out),
                      flush=True)
            ok = ok and passed
    finally:
        for p in echoes:
            p.terminate()
            p.wait()
    return ok


def link_core_frames(args, i):
    """Frames with the core header of link L<i>, by direction, that the
    forwarders counted (their last dump)."""
    ways = {"lan-to-wan": 0, "wan-to-lan": 0}
    for j in range(1, args.filters + 1):
        for k, n in ((read_counts(args, j) or {}).get("cores") or {}).items():
            side, rest = k.split(" link ")
            if int(rest.split()[0]) == i - 1:
                ways[side] += n
    return ways


def ping_links(net, args):
    """What an operator types in the Mininet CLI, "l<i>lan ping l<i>wan":
    3 ICMP echoes per link, answered, and seen by a filter both ways (in
    the forwarders' counts of the link's core headers)."""
    if not shutil.which("ping"):
        print("selftest: ping is not installed (apt-get install iputils-ping)", flush=True)
        return False
    ok = True
    for i in range(1, args.links + 1):
        before = link_core_frames(args, i)
        out = net.get("l%dlan" % i).cmd("ping -n -c 3 -i 0.2 -W 2 10.%d.0.2" % i)
        summary = [l for l in out.splitlines() if "packets transmitted" in l]
        replies = 0
        if summary:
            replies = int(summary[0].split(",")[1].split()[0])
        # The forwarders write their counts every second.
        deadline = time.time() + 5
        while True:
            now = link_core_frames(args, i)
            seen = {w: now[w] - before[w] for w in now}
            if min(seen.values()) >= 3 or time.time() > deadline:
                break
            time.sleep(0.25)
        passed = replies == 3 and min(seen.values()) >= 3
        print("selftest: l%dlan ping l%dwan through a filter: %s (%d/3 replies; a filter saw %d LAN->WAN and %d WAN->LAN frames of L%d)" % (
            i, i, "ok" if passed else "FAILED", replies, seen["lan-to-wan"], seen["wan-to-lan"], i), flush=True)
        if not passed:
            print(out)
        ok = ok and passed
    return ok


def failover(net, args):
    """Kills the filter that carries L1 (F1 with bridges), checks that the
    daemon bypasses it and L1 still passes, revives it and checks that it
    is back in service."""
    def l1_frames(j):
        """Frames of L1 filter F<j> has passed (its forwarder's counts)."""
        try:
            with open(os.path.join(args.run_dir, "f%d.json" % j)) as f:
                return sum(n for k, n in json.load(f)["cores"].items() if " link 0 " in k)
        except (OSError, ValueError):
            return 0

    victim = 1
    if args.filter == "forwarder":
        victim = max(range(1, args.filters + 1), key=l1_frames)
    name = "F%d" % victim
    before = l1_frames(victim)
    ok = True
    set_filter(net, args, victim, False)
    t0 = time.time()
    print("selftest: failover: %s%s is dead" % (name, " (carries L1)" if args.filter == "forwarder" else ""), flush=True)
    try:
        passed, st = wait_filter(args, name, "down", "sw-bypass", t0 + args.selftest)
        print("selftest: failover: daemon puts %s in software bypass: %s after %.1fs (%s)" % (
            name, "ok" if passed else "FAILED", time.time() - t0,
            st and "%s/%s: %s" % (st.get("state"), st.get("effective"), st.get("reason"))), flush=True)
        ok = ok and passed
        ok = probe_links(net, args, time.time() + args.selftest, "with %s dead" % name) and ok
    finally:
        set_filter(net, args, victim, True)
    t0 = time.time()
    passed, st = wait_filter(args, name, "up", "forward", t0 + args.selftest)
    print("selftest: failover: %s back in service: %s after %.1fs (%s)" % (
        name, "ok" if passed else "FAILED", time.time() - t0,
        st and "%s/%s" % (st.get("state"), st.get("effective"))), flush=True)
    ok = ok and passed
    ok = probe_links(net, args, time.time() + args.selftest, "with %s back" % name) and ok
    if args.filter == "forwarder":
        # L1 is back on its filter: the forwarder counts its frames again
        # (it writes its counts every second).
        deadline = time.time() + args.selftest
        while l1_frames(victim) <= before and time.time() < deadline:
            time.sleep(0.2)
        back = l1_frames(victim) > before
        print("selftest: failover: L1 crosses %s again: %s (%d frames before, %d now)" % (
            name, "ok" if back else "FAILED", before, l1_frames(victim)), flush=True)
        ok = ok and back
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--switch", choices=["bmv2", "sim"], default="bmv2",
                    help="the switch: BMv2 (default) or the software switch (balancer sim)")
    ap.add_argument("--balancer", metavar="PATH",
                    help="balancer binary for --switch sim (default: --daemon, else balancer on PATH, else bin/balancer)")
    ap.add_argument("--links", type=int, default=2, help="operator links (default 2)")
    ap.add_argument("--filters", type=int, default=2, help="filter groups (default 2)")
    ap.add_argument("--cores", type=int, default=4, help="cores per filter (default 4)")
    ap.add_argument("--interval", type=int, default=100, help="keep-alive interval in ms (default 100)")
    ap.add_argument("--run-dir", default="/tmp/balancer-bmv2", help="socket, logs, site.yaml (default /tmp/balancer-bmv2)")
    ap.add_argument("--filter", choices=["forwarder", "bridge"], default="forwarder",
                    help="filter emulator: the counting forwarder (default) or a Linux bridge")
    ap.add_argument("--daemon", metavar="BALANCER", help="start this balancer binary's daemon against the switch")
    ap.add_argument("--log", default="info", choices=["debug", "info", "output", "warning", "error"],
                    help="Mininet's log level (default info: the CLI's commands print their output)")
    ap.add_argument("--selftest", type=float, metavar="SECONDS", help="run the self-test instead of the CLI")
    ap.add_argument("--failover", action="store_true",
                    help="with --selftest: also kill a filter, check the bypass, revive it")
    ap.add_argument("--bmv2-log-level", default="warn", help="simple_switch_grpc log level (default warn)")
    ap.add_argument("--forward", nargs=3, metavar=("LAN", "WAN", "STATS"), help=argparse.SUPPRESS)
    ap.add_argument("--udp-echo", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--udp-probe", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.forward:
        forward(*args.forward)
        return 0
    if args.udp_echo:
        udp_echo(args.udp_echo)
        return 0
    if args.udp_probe:
        return udp_probe(args.udp_probe[0], int(args.udp_probe[1]), int(args.udp_probe[2]))
    if os.geteuid() != 0:
        print("topo.py: Mininet needs root", file=sys.stderr)
        return 2
    if args.links < 1 or args.filters < 1 or 2 * (args.links + args.filters) > 32:
        print("topo.py: 1..16 links and filters in all (a 32-port switch)", file=sys.stderr)
        return 2
    if not shutil.which("ethtool"):
        # Without it the veths' checksum offload stays on and the switch
        # forwards frames with unfilled checksums: the hosts drop them.
        print("topo.py: ethtool not found (apt-get install ethtool)", file=sys.stderr)
        return 2
    if args.switch == "bmv2" and not shutil.which("simple_switch_grpc"):
        print("topo.py: simple_switch_grpc not found: build BMv2 (bmv2/README.md) or use --switch sim",
              file=sys.stderr)
        return 2
    if args.switch == "sim":
        args.balancer = args.balancer or args.daemon or shutil.which("balancer") or \
            os.path.join(HERE, "..", "bin", "balancer")
        if not os.access(args.balancer, os.X_OK):
            print("topo.py: no balancer binary at %s: go build -o bin/balancer ./cmd/balancer, or give --balancer"
                  % args.balancer, file=sys.stderr)
            return 2
        args.balancer = os.path.abspath(args.balancer)
    if args.failover and not (args.selftest and args.daemon):
        print("topo.py: --failover is part of --selftest and reads the --daemon's status", file=sys.stderr)
        return 2
    os.makedirs(args.run_dir, exist_ok=True)
    cfg = os.path.join(args.run_dir, "site.yaml")
    with open(cfg, "w") as f:
        f.write(site_yaml(args.links, args.filters, args.cores, args.interval,
                          "sim" if args.switch == "sim" else "bmv2"))
    print("topo.py: site configuration %s" % cfg)

    from mininet.cli import CLI
    from mininet.log import setLogLevel
    # "info" is what makes the Mininet CLI talk: nodes, net, pingall and
    # "l1lan ping l1wan" print their results at that level.
    setLogLevel(args.log)
    # SIGTERM tears the topology down like Ctrl-D does (the finally below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    net = build(args)
    procs, daemon = [], None
    try:
        net.start()
        for h in net.hosts:
            h.cmd("sysctl -qw net.ipv6.conf.all.disable_ipv6=1")
            # BMv2 forwards what it reads: a checksum left to the NIC
            # (veth offload) would arrive unfilled.
            for intf in h.intfNames():
                h.cmd("ethtool -K %s tx off rx off >/dev/null 2>&1" % intf)
        procs = start_filters(net, args)
        sock = os.path.join(args.run_dir, "p4rt.sock")
        deadline = time.time() + 30
        while not os.path.exists(sock):
            if time.time() > deadline:
                print("topo.py: the switch did not open %s (see %s)" % (
                    sock, os.path.join(args.run_dir, "sim.log" if args.switch == "sim" else "bmv2.log")))
                return 1
            time.sleep(0.1)
        print("topo.py: %s serving P4Runtime on unix://%s" % (
            "the software switch" if args.switch == "sim" else "BMv2", sock), flush=True)
        if args.daemon:
            state = os.path.join(args.run_dir, "state")
            daemon = subprocess.Popen([args.daemon, "daemon", "--config", cfg, "--state-dir", state,
                                       "--socket", os.path.join(args.run_dir, "balancer.sock"),
                                       "--switch", "unix://" + sock,
                                       "--switch-gnmi", "unix://" + sock if args.switch == "sim" else "",
                                       "--telemetry", "", "--metrics", ""],
                                      stdout=open(os.path.join(args.run_dir, "daemon.log"), "w"),
                                      stderr=subprocess.STDOUT)
            print("topo.py: daemon pid %d (log %s/daemon.log)" % (daemon.pid, args.run_dir))
        if args.selftest:
            ok = selftest(net, args)
            if ok and args.failover:
                ok = failover(net, args)
            print("selftest: %s" % ("PASS" if ok else "FAIL"))
            return 0 if ok else 1
        CLI(net)
        return 0
    finally:
        if daemon:
            daemon.terminate()
            daemon.wait()
        for p in procs:
            p.terminate()
            p.wait()
        net.stop()


if __name__ == "__main__":
    sys.exit(main())

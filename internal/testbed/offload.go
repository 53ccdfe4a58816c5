package testbed

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/dpi-balancer/balancer/internal/rawport"
)

// The offloads Veth turns off, by the kernel's ethtool ioctl (the one
// the ethtool command makes; no binary needed): checksum offloads, TSO,
// GSO and GRO. With any of TSO, UFO, GSO, GRO or LRO on, libpcap (BMv2
// captures its ports with it) sizes each slot of its capture ring for a
// 64 KiB packet instead of the MTU: its 2 MB ring then holds about 31
// frames, and a burst of more is lost before BMv2 sees it (a host
// without the ethtool command once lost 59 of 100 frames that way).
var offloadsOff = []struct {
	name     string
	set, get uint32
}{
	{"tso", unix.ETHTOOL_STSO, unix.ETHTOOL_GTSO},
	{"gso", unix.ETHTOOL_SGSO, unix.ETHTOOL_GGSO},
	{"gro", unix.ETHTOOL_SGRO, unix.ETHTOOL_GGRO},
	{"tx", unix.ETHTOOL_STXCSUM, unix.ETHTOOL_GTXCSUM},
	{"rx", unix.ETHTOOL_SRXCSUM, unix.ETHTOOL_GRXCSUM},
}

// ethFlagLRO is ETH_FLAG_LRO (linux/ethtool.h), in ETHTOOL_GFLAGS.
const ethFlagLRO = 1 << 15

// ethtoolValue is struct ethtool_value.
type ethtoolValue struct{ cmd, data uint32 }

// ifreqData is struct ifreq with ifr_data, as SIOCETHTOOL takes it.
type ifreqData struct {
	name [unix.IFNAMSIZ]byte
	data unsafe.Pointer
	_    [24 - unsafe.Sizeof(unsafe.Pointer(nil))]byte
}

func ethtool(fd int, ifname string, v *ethtoolValue) error {
	var ifr ifreqData
	copy(ifr.name[:unix.IFNAMSIZ-1], ifname)
	ifr.data = unsafe.Pointer(v)
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SIOCETHTOOL, uintptr(unsafe.Pointer(&ifr))); errno != 0 {
		return errno
	}
	return nil
}

// Offloads returns the names of the offloads that are on on ifname in
// the namespace at nsPath, among those libpcap sizes its ring by (TSO,
// UFO, GSO, GRO, LRO) and the checksum offloads.
func Offloads(nsPath, ifname string) ([]string, error) {
	var on []string
	err := rawport.InNetns(nsPath, func() error {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		gets := []struct {
			name string
			cmd  uint32
		}{{"ufo", unix.ETHTOOL_GUFO}}
		for _, o := range offloadsOff {
			gets = append(gets, struct {
				name string
				cmd  uint32
			}{o.name, o.get})
		}
		for _, g := range gets {
			v := ethtoolValue{cmd: g.cmd}
			if err := ethtool(fd, ifname, &v); err != nil {
				if err == unix.EOPNOTSUPP {
					continue
				}
				return fmt.Errorf("%s: ethtool get %s: %w", ifname, g.name, err)
			}
			if v.data != 0 {
				on = append(on, g.name)
			}
		}
		v := ethtoolValue{cmd: unix.ETHTOOL_GFLAGS}
		if err := ethtool(fd, ifname, &v); err != nil {
			return fmt.Errorf("%s: ethtool get flags: %w", ifname, err)
		}
		if v.data&ethFlagLRO != 0 {
			on = append(on, "lro")
		}
		return nil
	})
	return on, err
}

// setOffloadsOff turns ifname's offloads off (offloadsOff) and checks
// that none is left on.
func setOffloadsOff(nsPath, ifname string) error {
	err := rawport.InNetns(nsPath, func() error {
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		for _, o := range offloadsOff {
			if err := ethtool(fd, ifname, &ethtoolValue{cmd: o.set}); err != nil {
				return fmt.Errorf("%s: ethtool %s off: %w", ifname, o.name, err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	on, err := Offloads(nsPath, ifname)
	if err != nil {
		return err
	}
	if len(on) > 0 {
		return fmt.Errorf("%s: offloads still on: %v", ifname, on)
	}
	return nil
}

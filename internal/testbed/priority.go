package testbed

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// TimingNice is the nice value RaisePriority gives a test process.
const TimingNice = -20

// RaisePriority gives every thread of the calling process nice TimingNice
// (Linux schedules threads, and a thread inherits the value of the one
// that creates it: the Go runtime's later threads and the processes a test
// starts, BMv2 among them, get it too). Tests that time the product (a
// failover within loss threshold x interval, keep-alives every 20ms) run
// the switch, the daemon and the filter emulators in one process: beside
// other load on a 2-core machine (a compiler, other packages' tests,
// stress-ng --cpu 8) that process waited hundreds of milliseconds for a
// CPU, and every keep-alive deadline measured the host instead of the
// product. At -20 a thread weighs as much as 86 ordinary CPU hogs (CFS weights 88761 and 1024). It returns what it
// did, or why it could not (it needs root; nothing is changed then).
func RaisePriority() (string, error) {
	if os.Geteuid() != 0 {
		return "", fmt.Errorf("testbed: raising the test's priority needs root")
	}
	done := map[int]bool{}
	// Threads started while the list is walked are created by threads
	// that may not have the value yet: walk until no new thread shows up.
	for round := 0; round < 10; round++ {
		tids, err := threads()
		if err != nil {
			return "", err
		}
		fresh := 0
		for _, tid := range tids {
			if done[tid] {
				continue
			}
			if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, TimingNice); err != nil {
				if err == syscall.ESRCH {
					continue // the thread ended meanwhile
				}
				return "", fmt.Errorf("testbed: setpriority thread %d: %w", tid, err)
			}
			done[tid] = true
			fresh++
		}
		if fresh == 0 {
			return fmt.Sprintf("test process at nice %d (%d threads)", TimingNice, len(done)), nil
		}
	}
	return "", fmt.Errorf("testbed: threads kept appearing while raising the priority")
}

func threads() ([]int, error) {
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, fmt.Errorf("testbed: list threads: %w", err)
	}
	var out []int
	for _, e := range ents {
		if tid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, tid)
		}
	}
	return out, nil
}

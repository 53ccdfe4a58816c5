package daemon

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// ErrStateDirInUse is returned by OpenStore when another daemon holds the
// state directory: two daemons saving into one directory would each
// number revisions from their own view and replace the other's.
var ErrStateDirInUse = errors.New("state directory in use")

// lockFile is the state directory's lock: an exclusive flock held for as
// long as the store is open (the kernel drops it when the process ends,
// so a crashed daemon never leaves it held), with the holder's PID in it.
const lockFile = "lock"

// lockDir takes the state directory's lock without waiting, or says which
// process holds it.
func lockDir(dir, path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			holder := "another process"
			// The kernel's record of the lock names its holder; failing
			// that (no /proc/locks), the PID the holder writes just after
			// taking the lock, once it names a live process: the file
			// still holds the last holder's PID until the new one writes
			// its own, and that process may have ended.
			for deadline := time.Now().Add(300 * time.Millisecond); ; {
				if pid := lockHolder(f, path); pid > 0 {
					holder = fmt.Sprintf("pid %d", pid)
					break
				}
				if time.Now().After(deadline) {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			return nil, fmt.Errorf("store: %s: %w by another balancer daemon (%s holds %s): stop that daemon first, or give this one its own --state-dir",
				dir, ErrStateDirInUse, holder, path)
		}
		return nil, fmt.Errorf("store: locking %s: %w", path, err)
	}
	// Ours: say who holds it, in one write of a fixed width (no
	// truncation, so a reader never sees a part of it).
	if _, err := f.WriteAt([]byte(fmt.Sprintf("%-19d\n", os.Getpid())), 0); err == nil {
		_ = f.Sync()
	}
	return f, nil
}

// lockHolder is the PID of the process holding the flock on f's file, 0
// when it cannot be told yet: the kernel's lock table (/proc/locks, in
// this process's PID namespace) when it lists the file, else the PID in
// the file when that process is alive.
func lockHolder(f *os.File, path string) int {
	if pid := kernelLockHolder(f); pid > 0 {
		return pid
	}
	pid := readPID(path)
	if pid <= 0 || !processAlive(pid) {
		return 0
	}
	return pid
}

// kernelLockHolder finds the FLOCK WRITE lock on f's file in /proc/locks
// ("1: FLOCK  ADVISORY  WRITE 4242 fd:00:1234 0 EOF"; waiters are
// "1: -> FLOCK ..."), 0 when it is not listed or cannot be read.
func kernelLockHolder(f *os.File) int {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return 0
	}
	data, err := os.ReadFile("/proc/locks")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[3] != "WRITE" {
			continue // a waiter ("->"), another kind of lock, or a short line
		}
		var major, minor uint32
		var ino uint64
		if _, err := fmt.Sscanf(fields[5], "%x:%x:%d", &major, &minor, &ino); err != nil {
			continue
		}
		if major != unix.Major(st.Dev) || minor != unix.Minor(st.Dev) || ino != st.Ino {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil && pid > 0 {
			return pid
		}
	}
	return 0
}

// processAlive says whether a process with this PID exists (signal 0:
// EPERM means it exists and is someone else's).
func processAlive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// readPID is the PID in a lock file, 0 when it holds none.
func readPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// Close releases the state directory (its lock); the store must not be
// used after. It is idempotent.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock == nil {
		return nil
	}
	err := s.lock.Close() // closing the descriptor drops the flock
	s.lock = nil
	return err
}

// Close releases what New took that Run has not released yet: the state
// directory (when the daemon opened it). Run releases it when it ends;
// Close is for a daemon that is made and never run, and is idempotent.
func (d *Daemon) Close() error {
	if d.ownStore == nil {
		return nil
	}
	return d.ownStore.Close()
}

package testbed

import (
	"bytes"
	"sync"
)

// SyncBuffer is a bytes.Buffer safe to write from one goroutine (a
// daemon's logger, a child process's output) while another reads it (a
// failure message).
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

package pipelinecases

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

// Target is a switch running the pipeline with site.yaml programmed.
type Target interface {
	// Send puts a frame on the wire into a data-plane port.
	Send(port uint32, frame []byte) error
	// PacketOut sends a frame from the controller.
	PacketOut(port uint32, flags uint8, frame []byte) error
	// Recv returns the next frame out of a data-plane port, or an error
	// after timeout.
	Recv(port uint32, timeout time.Duration) ([]byte, error)
	// PacketIn returns the next packet-in, or an error after timeout.
	PacketIn(timeout time.Duration) (*PacketIn, error)
}

// Timing of RunCases: how long an expected frame may take, and how long a
// port must stay quiet to count as "nothing else came out".
type Timing struct {
	Expect time.Duration
	Quiet  time.Duration
}

// RunT runs the cases as subtests and returns how many passed and failed.
func RunT(t *testing.T, tg Target, cases []Case, tm Timing) (passed, failed int) {
	for _, c := range cases {
		ok := t.Run(c.Name, func(t *testing.T) {
			if err := runCase(tg, c, tm); err != nil {
				t.Error(err)
			}
		})
		if ok {
			passed++
		} else {
			failed++
		}
	}
	return passed, failed
}

func runCase(tg Target, c Case, tm Timing) error {
	// Nothing left over from an earlier case.
	for _, p := range Ports {
		for {
			if _, err := tg.Recv(p, time.Millisecond); err != nil {
				break
			}
		}
	}
	for {
		if _, err := tg.PacketIn(time.Millisecond); err != nil {
			break
		}
	}
	var err error
	if c.PacketOut != nil {
		err = tg.PacketOut(c.PacketOut.Port, c.PacketOut.Flags, c.Frame)
	} else {
		err = tg.Send(c.In, c.Frame)
	}
	if err != nil {
		return fmt.Errorf("send: %w", err)
	}
	var errs []error
	expected := map[uint32]bool{}
	for _, o := range c.Out {
		expected[o.Port] = true
		got, err := tg.Recv(o.Port, tm.Expect)
		if err != nil {
			errs = append(errs, fmt.Errorf("port %d: expected a frame, got none (%v)", o.Port, err))
			continue
		}
		if err := compare(o, got); err != nil {
			errs = append(errs, fmt.Errorf("port %d: %w", o.Port, err))
		}
	}
	if c.PacketIn != nil {
		pin, err := tg.PacketIn(tm.Expect)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("expected a packet-in, got none (%v)", err))
		case pin.IngressPort != c.PacketIn.IngressPort || pin.Reason != c.PacketIn.Reason:
			errs = append(errs, fmt.Errorf("packet-in: port %d reason %d, want port %d reason %d", pin.IngressPort, pin.Reason, c.PacketIn.IngressPort, c.PacketIn.Reason))
		case !bytes.Equal(pin.Frame, c.PacketIn.Frame):
			errs = append(errs, fmt.Errorf("packet-in frame:\n got %s\nwant %s", hex.EncodeToString(pin.Frame), hex.EncodeToString(c.PacketIn.Frame)))
		}
	}
	// Nothing anywhere else (one quiet period for all ports: frames are
	// already queued by the time the expected ones arrived).
	deadline := time.Now().Add(tm.Quiet)
	for _, p := range Ports {
		wait := max(time.Until(deadline), time.Millisecond)
		if got, err := tg.Recv(p, wait); err == nil {
			what := "unexpected"
			if expected[p] {
				what = "extra"
			}
			errs = append(errs, fmt.Errorf("port %d: %s frame %s", p, what, hex.EncodeToString(got)))
		}
	}
	if c.PacketIn == nil {
		if pin, err := tg.PacketIn(time.Millisecond); err == nil {
			errs = append(errs, fmt.Errorf("unexpected packet-in from port %d", pin.IngressPort))
		}
	}
	return errors.Join(errs...)
}

func compare(o Output, got []byte) error {
	want := o.Frame
	if o.TxTimestampAt > 0 && len(got) >= o.TxTimestampAt+8 {
		ts := got[o.TxTimestampAt : o.TxTimestampAt+8]
		if bytes.Equal(ts, make([]byte, 8)) {
			return fmt.Errorf("keep-alive tx timestamp not written")
		}
		want = slices.Clone(want)
		copy(want[o.TxTimestampAt:], ts)
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("frame differs:\n got %s\nwant %s", hex.EncodeToString(got), hex.EncodeToString(want))
	}
	return nil
}

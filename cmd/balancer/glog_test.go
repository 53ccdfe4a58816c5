package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// The gNMI library's glog output goes to stderr: `balancer sim` serving a
// subscription leaves no log file in the temp directory. Runs in a fresh
// process (glog picks its directory once per process) with TMPDIR set.
func TestNoGlogFiles(t *testing.T) {
	if os.Getenv("BALANCER_GLOG_HELPER") == "1" {
		glogHelper(t)
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoGlogFiles$", "-test.count=1")
	cmd.Env = append(os.Environ(), "BALANCER_GLOG_HELPER=1", "TMPDIR="+dir)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	require.NoError(t, cmd.Run(), stderr.String())
	assert.Contains(t, stderr.String(), "subscription:", "glog logged the subscription, to stderr")
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	assert.Empty(t, names, "files written into the temp directory")
}

func glogHelper(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p4rt, gaddr := freeAddr(t), freeAddr(t)
	done := make(chan int, 1)
	go func() {
		var out, errb bytes.Buffer
		done <- run(ctx, []string{"sim", "--mem-port", "10", "--p4rt", p4rt, "--gnmi", gaddr, "--log-level", "warn"}, strings.NewReader(""), &out, &errb)
	}()
	conn, err := grpc.NewClient(gaddr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	c := gpb.NewGNMIClient(conn)
	require.Eventually(t, func() bool {
		sctx, scancel := context.WithTimeout(ctx, 5*time.Second)
		defer scancel()
		s, err := c.Subscribe(sctx)
		if err != nil {
			return false
		}
		if err := s.Send(&gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: &gpb.SubscriptionList{
			Mode: gpb.SubscriptionList_ONCE, Subscription: []*gpb.Subscription{{Path: &gpb.Path{Elem: []*gpb.PathElem{{Name: "interfaces"}}}}}}}}); err != nil {
			return false
		}
		for {
			r, err := s.Recv()
			if err != nil {
				return false
			}
			if r.GetSyncResponse() {
				return true
			}
		}
	}, 30*time.Second, 50*time.Millisecond)
	cancel()
	<-done
}

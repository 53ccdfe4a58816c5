package cli

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

func TestWriteHA(t *testing.T) {
	var b bytes.Buffer
	writeHA(&b, nil)
	assert.Empty(t, b.String(), "nothing with the state directory")
	writeHA(&b, &apiv1.HAStatus{Store: "etcd /b/sw1/", StoreHealthy: true, Name: "ctl-a", Leader: true,
		LeaderName: "ctl-a", Standbys: []string{"ctl-b", "ctl-c"}})
	assert.Equal(t, "store etcd /b/sw1/: healthy\n  this daemon (ctl-a): leader; leader ctl-a; standbys ctl-b, ctl-c\n", b.String())
	b.Reset()
	writeHA(&b, &apiv1.HAStatus{Store: "etcd /b/sw1/", StoreError: "context deadline exceeded", Name: "ctl-b"})
	assert.Equal(t, "store etcd /b/sw1/: UNREACHABLE: context deadline exceeded\n  this daemon (ctl-b): standby (not writing)\n", b.String())
}

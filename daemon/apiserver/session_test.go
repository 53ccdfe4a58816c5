package apiserver

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/daemon"
)

// sessionFake is apiFake with sessions: it records what reaches it.
type sessionFake struct {
	*apiFake
	gotConfirm time.Duration
	gotStage   []any
	err        error
}

func (f *sessionFake) StartSession(context.Context) (*daemon.SessionView, error) {
	return &daemon.SessionView{Session: &daemon.ConfigSession{Version: 1}}, f.err
}

func (f *sessionFake) ShowSession(context.Context) (*daemon.SessionView, error) {
	return &daemon.SessionView{}, f.err
}

func (f *sessionFake) StageSession(_ context.Context, data []byte, version uint64, edit string, dryRun bool) (*daemon.SessionView, error) {
	f.gotStage = []any{string(data), version, edit, dryRun}
	return &daemon.SessionView{Session: &daemon.ConfigSession{YAML: string(data), Version: version + 1}}, f.err
}

func (f *sessionFake) AbortSession(context.Context) (*daemon.SessionView, error) {
	return &daemon.SessionView{}, f.err
}

func (f *sessionFake) RebaseSession(context.Context) (*daemon.SessionView, error) {
	return &daemon.SessionView{}, f.err
}

func (f *sessionFake) CommitSession(ctx context.Context, _ string, confirm time.Duration, _ bool) (*daemon.ApplyResult, error) {
	f.gotConfirm = confirm
	return &daemon.ApplyResult{}, f.err
}

func (f *sessionFake) ConfirmCommit(context.Context) (daemon.Revision, error) {
	return daemon.Revision{Number: 3}, f.err
}

// Session requests are checked before the daemon gets them, and its
// state errors are FAILED_PRECONDITION.
func TestConfigSessionRequests(t *testing.T) {
	f := &sessionFake{apiFake: &apiFake{}}
	cl := serveAPI(t, f)
	ctx := context.Background()
	code := func(err error) codes.Code { return status.Code(err) }

	_, err := cl.ConfigSession(ctx, &apiv1.ConfigSessionRequest{Action: apiv1.ConfigSessionRequest_STAGE, Yaml: "site: x\n", Edit: "e"})
	assert.Equal(t, codes.InvalidArgument, code(err), "no version")
	_, err = cl.ConfigSession(ctx, &apiv1.ConfigSessionRequest{Action: apiv1.ConfigSessionRequest_STAGE, Yaml: "site: x\n", Version: 1})
	assert.Equal(t, codes.InvalidArgument, code(err), "no edit")
	_, err = cl.ConfigSession(ctx, &apiv1.ConfigSessionRequest{Action: apiv1.ConfigSessionRequest_STAGE, Yaml: "site: x\n", Version: 1, Edit: "a\x00b"})
	assert.Equal(t, codes.InvalidArgument, code(err), "a control character in the edit")
	_, err = cl.ConfigSession(ctx, &apiv1.ConfigSessionRequest{Action: apiv1.ConfigSessionRequest_STAGE, Version: 1, Edit: "e"})
	assert.Equal(t, codes.InvalidArgument, code(err), "no configuration")
	assert.Nil(t, f.gotStage, "nothing reached the daemon")
	r, err := cl.ConfigSession(ctx, &apiv1.ConfigSessionRequest{Action: apiv1.ConfigSessionRequest_STAGE, Yaml: "site: x\n", Version: 4, Edit: "balancer rule add x", DryRun: true})
	require.NoError(t, err)
	assert.Equal(t, []any{"site: x\n", uint64(4), "balancer rule add x", true}, f.gotStage)
	assert.Equal(t, "site: x\n", r.GetSession().GetYaml())
	_, err = cl.ConfigSession(ctx, &apiv1.ConfigSessionRequest{Action: 9})
	assert.Equal(t, codes.InvalidArgument, code(err))

	for _, bad := range []time.Duration{0, 500 * time.Millisecond, 25 * time.Hour, -time.Minute} {
		_, err = cl.CommitSession(ctx, &apiv1.CommitSessionRequest{Confirm: durationpb.New(bad)})
		assert.Equal(t, codes.InvalidArgument, code(err), "confirm %s", bad)
	}
	_, err = cl.CommitSession(ctx, &apiv1.CommitSessionRequest{Confirm: durationpb.New(5 * time.Minute)})
	require.NoError(t, err)
	assert.Equal(t, 5*time.Minute, f.gotConfirm)
	_, err = cl.CommitSession(ctx, &apiv1.CommitSessionRequest{})
	require.NoError(t, err)
	assert.Zero(t, f.gotConfirm, "no confirmation asked")

	f.err = errorOf(daemon.ErrSessionState)
	_, err = cl.ConfirmCommit(ctx, &apiv1.ConfirmCommitRequest{})
	assert.Equal(t, codes.FailedPrecondition, code(err))
	f.err = errorOf(daemon.ErrConflict)
	_, err = cl.CommitSession(ctx, &apiv1.CommitSessionRequest{})
	assert.Equal(t, codes.Aborted, code(err))

	// A Service without sessions says so.
	_, err = serveAPI(t, &apiFake{}).ConfigSession(ctx, &apiv1.ConfigSessionRequest{})
	assert.Equal(t, codes.Unimplemented, code(err))
}

type wrapped struct{ kind error }

func (w wrapped) Error() string { return "refused: " + w.kind.Error() }
func (w wrapped) Unwrap() error { return w.kind }

func errorOf(kind error) error { return wrapped{kind} }

package apiserver

import (
	"context"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/daemon"
)

// sessionService is what a Service may also offer: configuration
// sessions and commit confirmed (daemon.Daemon does; see
// daemon/confsession.go).
type sessionService interface {
	StartSession(ctx context.Context) (*daemon.SessionView, error)
	ShowSession(ctx context.Context) (*daemon.SessionView, error)
	StageSession(ctx context.Context, data []byte, version uint64, edit string, dryRun bool) (*daemon.SessionView, error)
	AbortSession(ctx context.Context) (*daemon.SessionView, error)
	RebaseSession(ctx context.Context) (*daemon.SessionView, error)
	CommitSession(ctx context.Context, comment string, confirm time.Duration, dryRun bool) (*daemon.ApplyResult, error)
	ConfirmCommit(ctx context.Context) (daemon.Revision, error)
}

var _ sessionService = (*daemon.Daemon)(nil)

// Bounds of CommitSessionRequest.confirm.
const (
	MinConfirm = time.Second
	MaxConfirm = 24 * time.Hour
)

func (s *apiServer) sessions() (sessionService, error) {
	ss, ok := s.svc.(sessionService)
	if !ok {
		return nil, status.Error(codes.Unimplemented, "this daemon has no configuration sessions")
	}
	return ss, nil
}

func (s *apiServer) ConfigSession(ctx context.Context, req *apiv1.ConfigSessionRequest) (_ *apiv1.ConfigSessionResponse, err error) {
	defer markOrigin(ctx, &err)
	ss, err := s.sessions()
	if err != nil {
		return nil, err
	}
	var v *daemon.SessionView
	switch req.GetAction() {
	case apiv1.ConfigSessionRequest_SHOW:
		v, err = ss.ShowSession(ctx)
	case apiv1.ConfigSessionRequest_START:
		v, err = ss.StartSession(ctx)
	case apiv1.ConfigSessionRequest_ABORT:
		v, err = ss.AbortSession(ctx)
	case apiv1.ConfigSessionRequest_REBASE:
		v, err = ss.RebaseSession(ctx)
	case apiv1.ConfigSessionRequest_STAGE:
		if err := checkStage(req); err != nil {
			return nil, err
		}
		v, err = ss.StageSession(ctx, []byte(req.GetYaml()), req.GetVersion(), req.GetEdit(), req.GetDryRun())
	default:
		return nil, invalid("action %d: unknown; give SHOW, START, STAGE, ABORT or REBASE", req.GetAction())
	}
	if err != nil {
		return nil, grpcError(err)
	}
	out := &apiv1.ConfigSessionResponse{Changes: v.Changes, Running: revisionToProto(v.Running), Moved: v.Moved, Warning: v.Warning}
	if v.Session != nil {
		out.Session = configSessionToProto(v.Session)
		if req.GetAction() != apiv1.ConfigSessionRequest_ABORT {
			out.Session.Yaml = v.Session.YAML
		}
	}
	return out, nil
}

// checkStage refuses a stage request the daemon would refuse, before any
// work.
func checkStage(req *apiv1.ConfigSessionRequest) error {
	if req.GetVersion() == 0 {
		return invalid("version: missing; give the session's version the edit was made from (SHOW returns it)")
	}
	if err := config.CheckText("edit", req.GetEdit(), config.MaxCommentBytes); err != nil {
		return invalid("%v", err)
	}
	if len(req.GetEdit()) == 0 {
		return invalid("edit: missing; give the edit as typed (it is listed by the session and saved in the commit's comment)")
	}
	if n := len(req.GetYaml()); n > config.MaxConfigBytes {
		return invalid("the configuration is %d bytes; the limit is %d bytes (1 MiB): remove objects or rules", n, config.MaxConfigBytes)
	}
	if len(req.GetYaml()) == 0 {
		return invalid("the staged configuration is empty; a stage replaces the whole staged configuration, so send all of it")
	}
	return nil
}

func (s *apiServer) CommitSession(ctx context.Context, req *apiv1.CommitSessionRequest) (_ *apiv1.ApplyResult, err error) {
	defer markOrigin(ctx, &err)
	ss, err := s.sessions()
	if err != nil {
		return nil, err
	}
	if err := config.CheckText("comment", req.GetComment(), config.MaxCommentBytes); err != nil {
		return nil, invalid("%v", err)
	}
	var confirm time.Duration
	if c := req.GetConfirm(); c != nil {
		if err := c.CheckValid(); err != nil {
			return nil, invalid("confirm: %v", err)
		}
		confirm = c.AsDuration()
		if confirm < MinConfirm || confirm > MaxConfirm {
			return nil, invalid("confirm %s is out of range %s..%s: give the time within which the commit must be confirmed (balancer config confirm)", confirm, MinConfirm, MaxConfirm)
		}
	}
	res, err := ss.CommitSession(daemon.WithStrict(daemon.WithForce(daemon.WithBy(ctx, Who(ctx)), req.GetForce()), req.GetStrict()), req.GetComment(), confirm, req.GetDryRun())
	if err != nil {
		return nil, grpcError(err)
	}
	return applyResultToProto(res), nil
}

func (s *apiServer) ConfirmCommit(ctx context.Context, _ *apiv1.ConfirmCommitRequest) (_ *apiv1.ConfirmCommitResponse, err error) {
	defer markOrigin(ctx, &err)
	ss, err := s.sessions()
	if err != nil {
		return nil, err
	}
	rev, err := ss.ConfirmCommit(daemon.WithBy(ctx, Who(ctx)))
	if err != nil {
		return nil, grpcError(err)
	}
	return &apiv1.ConfirmCommitResponse{Revision: revisionToProto(rev)}, nil
}

func configSessionToProto(s *daemon.ConfigSession) *apiv1.ConfigSession {
	if s == nil {
		return nil
	}
	return &apiv1.ConfigSession{Base: revisionToProto(s.Base), Started: timestamp(s.Started), Edits: s.Edits, Version: s.Version}
}

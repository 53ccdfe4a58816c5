package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dpi-balancer/balancer/config"
)

// Configuration sessions and commit confirmed.
//
// A session stages edits against the running revision it started on; its
// commit applies them together as one revision (one save, one switch
// write), and is refused when the running revision moved since. One
// session at a time, shared by every operator (a candidate
// configuration): while it is open the CLI's edit commands stage into it.
//
// A commit confirmed applies the revision and rolls it back by itself to
// the revision before it unless ConfirmCommit comes by the deadline. The
// deadline and both revisions are saved in the store before the revision
// is, so a restarted daemon, or a new HA leader, finds them and rolls
// back on time.
//
// Both are kept in the store as documents (statestore.DocStore): the state
// directory's session.json and confirm.json, the etcd keys doc/session and
// doc/confirm.

// ErrSessionState: a session or commit-confirmed request that does not
// fit the state (no session open, one already open, a commit confirmed
// pending). The API maps it to FAILED_PRECONDITION.
var ErrSessionState = errors.New("session state")

// MaxSessionEdits bounds the edits one session stages.
const MaxSessionEdits = 1000

// Document names in the store.
const (
	docSession = "session"
	docConfirm = "confirm"
)

// ConfigSession is the open configuration session.
type ConfigSession struct {
	// Base is the revision it started on: its commit is made on top of
	// it, or refused.
	Base    Revision  `json:"base"`
	Started time.Time `json:"started"`
	// YAML is the staged configuration.
	YAML string `json:"yaml"`
	// Edits are the staged edits, oldest first, as typed.
	Edits []string `json:"edits"`
	// Version moves with every staged edit: a stage made from another
	// version is refused (two operators staging at once).
	Version uint64 `json:"version"`
}

// SessionView is what a session request answers.
type SessionView struct {
	// Session is the open session (nil: none).
	Session *ConfigSession
	// Changes: what a staged edit changes; for ShowSession, what the
	// session changes against its base revision.
	Changes []string
	// Running is the running revision; Moved, when it is not the
	// session's base, what changed since (base against running).
	Running Revision
	Moved   []string
	Warning string
}

// CommitConfirm is a commit confirmed waiting for ConfirmCommit.
type CommitConfirm struct {
	// Revision is the revision that rolls back (0: its save had not
	// completed when this was saved); Previous the one it rolls back to.
	Revision uint64    `json:"revision"`
	Previous uint64    `json:"previous"`
	Deadline time.Time `json:"deadline"`

	// rolling: the rollback is under way; retryAt: it failed, and is
	// tried again then. A pending commit confirmed is never changed once
	// published (confirmState): these change in a copy.
	rolling bool
	retryAt time.Time
}

// confirmState is the pending commit confirmed (nil p: none) as
// published in Daemon.confirm: an immutable value, replaced whole by a
// compare-and-swap. gen moves with every change made here, so that
// refreshDocs keeps what changed during its read of the store.
type confirmState struct {
	p   *CommitConfirm
	gen uint64
}

// pending returns the pending commit confirmed (nil: none), not to be
// changed.
func (d *Daemon) pending() *CommitConfirm {
	if c := d.confirm.Load(); c != nil {
		return c.p
	}
	return nil
}

// swapConfirm publishes p (nil: none) in place of old, the value last read
// (nil old: whatever is pending), and says whether it did: false when
// another change came first (old no longer pending).
func (d *Daemon) swapConfirm(old, p *CommitConfirm) bool {
	for {
		cur := d.confirm.Load()
		var curP *CommitConfirm
		var gen uint64
		if cur != nil {
			curP, gen = cur.p, cur.gen
		}
		if old != nil && curP != old {
			return false
		}
		if d.confirm.CompareAndSwap(cur, &confirmState{p: p, gen: gen + 1}) {
			return true
		}
	}
}

type confirmOwnKey struct{}

// withConfirmOwn marks a change made by a commit confirmed or its
// rollback: it is not refused for the commit confirmed pending.
func withConfirmOwn(ctx context.Context) context.Context {
	return context.WithValue(ctx, confirmOwnKey{}, true)
}

// refusePending refuses a configuration change while a commit confirmed
// waits for its confirmation (the rollback would undo it too).
func (d *Daemon) refusePending(ctx context.Context) error {
	if own, _ := ctx.Value(confirmOwnKey{}).(bool); own {
		return nil
	}
	p := d.pending()
	if p == nil {
		return nil
	}
	return kindf(ErrSessionState, "a commit confirmed is pending: revision %d rolls back to revision %d at %s unless confirmed; confirm it first (balancer config confirm), or wait for the rollback, then make this change",
		p.Revision, p.Previous, p.Deadline.Format(time.RFC3339))
}

// docs is the store's document store (nil: the store keeps none; the
// session and a commit confirmed then live as long as the daemon).
func (d *Daemon) docs() DocStore { return d.caps.docs }

func (d *Daemon) saveDoc(name string, v any) error {
	s := d.docs()
	if s == nil {
		return nil
	}
	var b []byte
	if v != nil {
		var err error
		if b, err = json.MarshalIndent(v, "", "  "); err != nil {
			return err
		}
	}
	return s.SaveDoc(name, b)
}

// readDocs reads the session and a commit confirmed from the store.
func (d *Daemon) readDocs() (*ConfigSession, *CommitConfirm, error) {
	s := d.docs()
	if s == nil {
		return nil, nil, nil
	}
	var sess *ConfigSession
	if b, err := s.LoadDoc(docSession); err != nil {
		return nil, nil, err
	} else if b != nil {
		sess = &ConfigSession{}
		if err := json.Unmarshal(b, sess); err != nil {
			return nil, nil, fmt.Errorf("the configuration session saved in the store does not read back: %v (remove it: session.json in the state directory, or the key doc/session)", err)
		}
	}
	var conf *CommitConfirm
	if b, err := s.LoadDoc(docConfirm); err != nil {
		return nil, nil, err
	} else if b != nil {
		conf = &CommitConfirm{}
		if err := json.Unmarshal(b, conf); err != nil {
			return nil, nil, fmt.Errorf("the commit confirmed saved in the store does not read back: %v (remove it: confirm.json in the state directory, or the key doc/confirm)", err)
		}
	}
	return sess, conf, nil
}

// loadDocs reads the session and a commit confirmed from the store (New).
func (d *Daemon) loadDocs() error {
	sess, conf, err := d.readDocs()
	if err != nil {
		return err
	}
	d.sessMu.Lock()
	d.setSession(sess)
	d.sessMu.Unlock()
	d.swapConfirm(nil, conf)
	d.kickConfirm()
	return nil
}

// refreshDocs reads them again after a reload from the store (a takeover
// finds the former leader's commit confirmed there). What this daemon
// changed since the read began is newer than the read, and stays.
func (d *Daemon) refreshDocs() {
	sg, c0 := d.sessGen.Load(), d.confirm.Load()
	sess, conf, err := d.readDocs()
	if err != nil {
		d.log.Warn("reading the configuration session and commit confirmed from the store", "err", err)
		return
	}
	if d.sessMu.TryLock() { // else a session request runs: it writes the newest
		if d.sessGen.Load() == sg {
			d.setSession(sess)
		}
		d.sessMu.Unlock()
	}
	// Unless a change was made here since the read began (the value
	// read then is no longer the one published), or a rollback is under
	// way.
	if c0 == nil || c0.p == nil || !c0.p.rolling {
		d.confirm.CompareAndSwap(c0, &confirmState{p: conf, gen: genOf(c0) + 1})
	}
	d.kickConfirm()
}

func genOf(c *confirmState) uint64 {
	if c == nil {
		return 0
	}
	return c.gen
}

func (d *Daemon) kickConfirm() {
	select {
	case d.confirmKick <- struct{}{}:
	default:
	}
}

// PendingConfirm returns the commit confirmed waiting for confirmation
// (nil: none).
func (d *Daemon) PendingConfirm() *CommitConfirm {
	p := d.pending()
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// setSession makes s the open session (nil: none); sessMu is held.
func (d *Daemon) setSession(s *ConfigSession) {
	d.sess = s
	d.sessView.Store(s)
	d.sessGen.Add(1)
}

// OpenSession returns the open session without its YAML (nil: none). It
// takes no lock a commit holds (status is read while one runs).
func (d *Daemon) OpenSession() *ConfigSession {
	cur := d.sessView.Load()
	if cur == nil {
		return nil
	}
	s := *cur
	s.YAML = ""
	s.Edits = append([]string(nil), cur.Edits...)
	return &s
}

func noSession() error {
	return kindf(ErrSessionState, "no configuration session is open: start one with balancer config session start")
}

// StartSession opens a configuration session on the running revision.
func (d *Daemon) StartSession(context.Context) (*SessionView, error) {
	d.sessMu.Lock()
	defer d.sessMu.Unlock()
	if s := d.sess; s != nil {
		return nil, kindf(ErrSessionState, "a configuration session is already open (started %s on revision %d, %d edits staged): see it with balancer config session diff, then commit or abort it",
			s.Started.Format(time.RFC3339), s.Base.Number, len(s.Edits))
	}
	r := d.snapshot()
	s := &ConfigSession{Base: r.rev, Started: d.now(), YAML: string(r.yaml), Version: 1}
	if err := d.saveDoc(docSession, s); err != nil {
		return nil, fmt.Errorf("the session was not started: %w", err)
	}
	d.setSession(s)
	c := *s
	return &SessionView{Session: &c, Running: r.rev}, nil
}

// StageSession stages the whole configuration data, made by edit from the
// session's version, into the open session. It is validated as an apply
// would be; with dryRun it is only validated.
func (d *Daemon) StageSession(ctx context.Context, data []byte, version uint64, edit string, dryRun bool) (*SessionView, error) {
	d.sessMu.Lock()
	defer d.sessMu.Unlock()
	s := d.sess
	if s == nil {
		return nil, noSession()
	}
	if version != s.Version {
		return nil, kindf(ErrConflict, "the configuration session moved (another edit was staged) since this edit read it; read it again and retry")
	}
	if len(s.Edits) >= MaxSessionEdits {
		return nil, kindf(ErrSessionState, "the configuration session holds %d edits, the most it takes: commit it (balancer config session commit) or abort it", len(s.Edits))
	}
	// Validated as an apply would be (a dry run against the running one).
	res, err := d.ApplyConfig(ctx, data, true, "")
	if err != nil {
		return nil, err
	}
	prev, err := config.Parse([]byte(s.YAML))
	if err != nil {
		return nil, fmt.Errorf("the staged configuration does not read back: %w", err)
	}
	next, err := config.Parse(data)
	if err != nil {
		return nil, kindf(ErrInvalid, "%v", err)
	}
	view := &SessionView{Changes: ConfigChanges(prev, next), Running: d.snapshot().rev, Warning: res.Warning}
	if dryRun {
		c := *s
		view.Session = &c
		return view, nil
	}
	ns := *s
	ns.YAML = string(data)
	ns.Edits = append(append([]string(nil), s.Edits...), edit)
	ns.Version++
	if err := d.saveDoc(docSession, &ns); err != nil {
		return nil, fmt.Errorf("the edit was not staged: %w", err)
	}
	d.setSession(&ns)
	c := ns
	view.Session = &c
	return view, nil
}

// ShowSession shows the open session: what it changes against its base
// revision and, when the running revision moved since, what moved.
func (d *Daemon) ShowSession(context.Context) (*SessionView, error) {
	d.sessMu.Lock()
	defer d.sessMu.Unlock()
	r := d.snapshot()
	view := &SessionView{Running: r.rev}
	if d.sess == nil {
		return view, nil
	}
	c := *d.sess
	view.Session = &c
	base, err := d.baseConfig(c.Base, r)
	if err != nil {
		view.Warning = err.Error()
		return view, nil
	}
	staged, err := config.Parse([]byte(c.YAML))
	if err != nil {
		return nil, fmt.Errorf("the staged configuration does not read back: %w", err)
	}
	view.Changes = ConfigChanges(base, staged)
	if r.rev.Number != c.Base.Number {
		view.Moved = ConfigChanges(base, r.cfg)
	}
	return view, nil
}

// baseConfig is the configuration of a session's base revision.
func (d *Daemon) baseConfig(base Revision, r *running) (*config.Config, error) {
	if base.Number == r.rev.Number {
		return r.cfg, nil
	}
	data, err := d.store.Revision(base.Number)
	if err != nil {
		return nil, fmt.Errorf("revision %d, the session's base, is no longer kept: %w", base.Number, err)
	}
	return config.Parse(data)
}

// AbortSession drops the open session; it returns it.
func (d *Daemon) AbortSession(context.Context) (*SessionView, error) {
	d.sessMu.Lock()
	defer d.sessMu.Unlock()
	if d.sess == nil {
		return nil, noSession()
	}
	if err := d.saveDoc(docSession, nil); err != nil {
		return nil, fmt.Errorf("the session was not aborted: %w", err)
	}
	s := d.sess
	d.setSession(nil)
	return &SessionView{Session: s, Running: d.snapshot().rev}, nil
}

// sessionComment is a session commit's default comment: its edits.
func sessionComment(s *ConfigSession) string {
	c := fmt.Sprintf("session of %d edits: %s", len(s.Edits), strings.Join(s.Edits, "; "))
	if len(c) > config.MaxCommentBytes {
		cut := config.MaxCommentBytes - len(" ...")
		for cut > 0 && (c[cut]&0xC0) == 0x80 {
			cut-- // not inside a UTF-8 sequence
		}
		c = c[:cut] + " ..."
	}
	return c
}

// CommitSession applies the open session as one revision on top of its
// base revision (ErrConflict, naming what moved, when the running revision
// moved since). With confirm > 0 the revision rolls back by itself to the
// base unless ConfirmCommit comes within confirm. Force and strict come
// through ctx (WithForce, WithStrict). The session closes once its
// revision is saved (or when it changes nothing).
func (d *Daemon) CommitSession(ctx context.Context, comment string, confirm time.Duration, dryRun bool) (*ApplyResult, error) {
	d.sessMu.Lock()
	defer d.sessMu.Unlock()
	s := d.sess
	if s == nil {
		return nil, noSession()
	}
	r := d.snapshot()
	if r.rev.Number != s.Base.Number {
		return nil, d.movedError(s, r)
	}
	if comment == "" {
		comment = sessionComment(s)
	}
	ctx = WithBaseRevision(ctx, s.Base.Number)
	if dryRun {
		return d.ApplyConfig(ctx, []byte(s.YAML), true, comment)
	}
	if confirm > 0 {
		if d.pending() != nil {
			return nil, d.refusePending(context.Background())
		}
		// Saved before the revision: a daemon killed in between finds it
		// and judges by the running revision (never a rollback lost).
		p := &CommitConfirm{Previous: s.Base.Number, Deadline: d.now().Add(confirm)}
		if err := d.setConfirm(p); err != nil {
			return nil, fmt.Errorf("nothing was committed: the commit confirmed could not be saved: %w", err)
		}
		ctx = withConfirmOwn(ctx)
	}
	res, err := d.ApplyConfig(ctx, []byte(s.YAML), false, comment)
	if err != nil {
		if confirm > 0 {
			_ = d.setConfirm(nil)
		}
		if errors.Is(err, ErrConflict) {
			if r := d.snapshot(); r.rev.Number != s.Base.Number {
				return nil, d.movedError(s, r)
			}
		}
		return nil, err
	}
	if confirm > 0 {
		if res.Unchanged {
			_ = d.setConfirm(nil) // nothing to roll back
		} else {
			p := &CommitConfirm{Revision: res.Revision.Number, Previous: s.Base.Number, Deadline: d.now().Add(confirm)}
			if err := d.setConfirm(p); err != nil {
				res.addWarning(fmt.Sprintf("the commit confirmed's revision was not saved with it (%v): it still rolls back to revision %d at the deadline unless confirmed", err, p.Previous))
			}
			d.events.Publish(Event{Kind: EventConfig, Object: fmt.Sprintf("revision %d", p.Revision), From: "running", To: "confirm-pending",
				Reason: fmt.Sprintf("commit confirmed: rolls back to revision %d at %s unless confirmed", p.Previous, p.Deadline.Format(time.RFC3339))})
			res.addWarning(fmt.Sprintf("commit confirmed: revision %d rolls back to revision %d at %s unless `balancer config confirm`", p.Revision, p.Previous, p.Deadline.Format(time.RFC3339)))
		}
	}
	if err := d.saveDoc(docSession, nil); err != nil {
		res.addWarning("committed, but the session's record could not be removed (" + err.Error() + "): abort it (balancer config session abort)")
	}
	d.setSession(nil)
	return res, nil
}

// movedError refuses a session's commit when the running revision moved
// since it started: what moved, and what to do.
func (d *Daemon) movedError(s *ConfigSession, r *running) error {
	var moved string
	if base, err := d.baseConfig(s.Base, r); err != nil {
		moved = "  (" + err.Error() + ")"
	} else if ch := ConfigChanges(base, r.cfg); len(ch) > 0 {
		moved = "  " + strings.Join(ch, "\n  ")
	} else {
		moved = "  (no object changed: comments or layout only)"
	}
	return kindf(ErrConflict, "the configuration session started on revision %d, but the running revision is now %d (%s): nothing was committed. What moved since:\n%s\n"+
		"Rebase the session onto revision %d (balancer config session rebase: refused, naming them, where an object changed both in the session and since), or abort it (balancer config session abort) to keep the running configuration as it is",
		s.Base.Number, r.rev.Number, r.rev.Comment, moved, r.rev.Number)
}

// setConfirm saves p (nil: none pending) and makes it the pending one.
func (d *Daemon) setConfirm(p *CommitConfirm) error {
	if err := d.saveDoc(docConfirm, p); err != nil {
		return err
	}
	d.swapConfirm(nil, p)
	d.kickConfirm()
	return nil
}

// ConfirmCommit keeps the revision of the pending commit confirmed.
func (d *Daemon) ConfirmCommit(context.Context) (Revision, error) {
	p := d.pending()
	if p == nil {
		return Revision{}, kindf(ErrSessionState, "no commit confirmed is pending: nothing to confirm")
	}
	if p.rolling {
		return Revision{}, kindf(ErrSessionState, "too late: the deadline (%s) passed and revision %d is being rolled back to revision %d", p.Deadline.Format(time.RFC3339), p.Revision, p.Previous)
	}
	if err := d.saveDoc(docConfirm, nil); err != nil {
		return Revision{}, fmt.Errorf("not confirmed (it still rolls back at %s): %w", p.Deadline.Format(time.RFC3339), err)
	}
	d.swapConfirm(p, nil)
	d.kickConfirm()
	d.events.Publish(Event{Kind: EventConfig, Object: fmt.Sprintf("revision %d", p.Revision), From: "confirm-pending", To: "confirmed",
		Reason: fmt.Sprintf("confirmed before %s", p.Deadline.Format(time.RFC3339))})
	d.log.Info("commit confirmed: confirmed", "revision", p.Revision)
	return d.snapshot().rev, nil
}

// confirmRetry is how long a failed rollback waits before the next try.
const confirmRetry = 5 * time.Second

// confirmLoop rolls a pending commit confirmed back at its deadline. A
// standby of a leader election leaves it to the leader (a takeover reads
// it from the store and kicks the loop).
func (d *Daemon) confirmLoop(ctx context.Context) error {
	for {
		var fire <-chan time.Time
		var timer *time.Timer
		if p := d.PendingConfirm(); p != nil && !p.rolling && !d.standby() {
			at := p.Deadline
			if p.retryAt.After(at) {
				at = p.retryAt
			}
			timer = time.NewTimer(max(at.Sub(d.now()), 0))
			fire = timer.C
		}
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return nil
		case <-d.confirmKick:
		case <-fire:
			d.expireConfirm(ctx)
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// expireConfirm rolls back the pending commit confirmed whose deadline
// passed.
func (d *Daemon) expireConfirm(ctx context.Context) {
	old := d.pending()
	if old == nil || old.rolling || d.now().Before(old.Deadline) {
		return
	}
	cp := *old
	cp.rolling = true
	p := &cp
	if !d.swapConfirm(old, p) {
		return // confirmed, or replaced, meanwhile
	}
	fail := func(err error) {
		d.log.Error("commit confirmed: rolling back failed; retried", "revision", cp.Revision, "previous", cp.Previous, "err", err)
		retry := cp
		retry.rolling, retry.retryAt = false, d.now().Add(confirmRetry)
		d.swapConfirm(p, &retry)
	}
	run := d.snapshot().rev
	deadline := cp.Deadline.Format(time.RFC3339)
	switch {
	case cp.Revision == 0 && run.Number == cp.Previous:
		// The commit never completed: nothing to roll back.
		_ = d.clearConfirm(p)
		return
	case cp.Revision != 0 && run.Number != cp.Revision:
		d.events.Publish(Event{Kind: EventConfig, Object: fmt.Sprintf("revision %d", cp.Revision), From: "confirm-pending", To: "not-rolled-back",
			Reason: fmt.Sprintf("not confirmed by %s, but the running revision is %d, not %d: left as it is", deadline, run.Number, cp.Revision)})
		_ = d.clearConfirm(p)
		return
	}
	rev := cp.Revision
	if rev == 0 {
		rev = run.Number
	}
	reason := fmt.Sprintf("commit confirmed of revision %d not confirmed by %s", rev, deadline)
	res, err := d.Rollback(withConfirmOwn(WithForce(WithBy(ctx, "the daemon (commit confirmed not confirmed)"), true)), cp.Previous, false, reason+fmt.Sprintf(": rolled back to revision %d", cp.Previous))
	if err != nil {
		fail(err)
		return
	}
	if err := d.clearConfirm(p); err != nil {
		d.log.Error("commit confirmed: rolled back, but its record could not be removed", "err", err)
	}
	d.log.Warn("commit confirmed: rolled back", "revision", rev, "to", cp.Previous, "new_revision", res.Revision.Number)
	d.events.Publish(Event{Kind: EventConfig, Object: fmt.Sprintf("revision %d", rev), From: "confirm-pending", To: "rolled-back",
		Reason: fmt.Sprintf("%s: rolled back to revision %d as revision %d", reason, cp.Previous, res.Revision.Number)})
}

// clearConfirm removes p, the pending commit confirmed, once handled. It
// is gone from memory even when the store keeps it (a daemon that reads
// it again finds the running revision moved, and leaves it).
func (d *Daemon) clearConfirm(p *CommitConfirm) error {
	err := d.saveDoc(docConfirm, nil)
	d.swapConfirm(p, nil)
	return err
}

package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/daemon/pipeline"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/tables"
)

// loadSite reads the running configuration from the store or, when it
// has none (seed), the initial one.
func loadSite(store StateStore, opts Options) (data []byte, rev Revision, cfg *config.Config, seed bool, err error) {
	data, rev, err = store.Running()
	seed = errors.Is(err, os.ErrNotExist)
	switch {
	case seed:
		if opts.InitialConfig == "" {
			return nil, rev, nil, seed, fmt.Errorf("daemon: no running configuration in %s and no initial configuration given", opts.StateDir)
		}
		if data, err = os.ReadFile(opts.InitialConfig); err != nil {
			return nil, rev, nil, seed, fmt.Errorf("daemon: %w", err)
		}
	case err != nil:
		return nil, rev, nil, seed, fmt.Errorf("daemon: %w", err)
	}
	cfg, err = config.Parse(data)
	switch {
	case err != nil && seed:
		return nil, rev, nil, seed, fmt.Errorf("daemon: %s: %w", opts.InitialConfig, err)
	case err != nil:
		return nil, rev, nil, seed, fmt.Errorf("daemon: running configuration (revision %d) is invalid: %w", rev.Number, err)
	}
	return data, rev, cfg, seed, nil
}

// loadPipeline resolves the pipeline for a site of the platform and makes
// the schema and the compiler of its P4Info, refusing a P4Info that is not
// the platform's build.
func (d *Daemon) loadPipeline(platform string, sessions bool) error {
	var err error
	if d.pipeline, err = resolvePipeline(d.opts, platform, sessions); err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	d.log.Info("pipeline", "platform", platform, "format", d.pipeline.Format, "p4info", d.pipeline.P4InfoFrom,
		"device_config", d.pipeline.DeviceConfigFrom, "device_config_bytes", len(d.pipeline.DeviceConfig))
	if d.schema, err = p4src.Load(); err == nil && d.pipeline.P4Info != d.schema.Info {
		// Table sizes, and the ids of counters and value sets (bf-p4c names
		// those itself), are the pushed build's; names are the contract's.
		d.schema, err = p4src.NewSchema(d.pipeline.P4Info)
	}
	if err != nil {
		return err
	}
	if d.comp, err = tables.New(d.schema); err != nil {
		return err
	}
	if err := d.comp.CheckPlatform(platform); err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	return nil
}

// resolvePipeline is the pipeline to push for a site of the platform:
// opts.Pipeline as given, else opts.PipelineFrom resolved for it, else the
// embedded v1model build.
func resolvePipeline(opts Options, platform string, sessions bool) (*pipeline.Pipeline, error) {
	switch {
	case opts.Pipeline != nil:
		if sessions {
			if err := pipeline.CheckSessions(opts.Pipeline.P4Info, "given"); err != nil {
				return nil, err
			}
		}
		return &pipeline.Pipeline{Pipeline: *opts.Pipeline, P4InfoFrom: "given", DeviceConfigFrom: "given"}, nil
	case opts.PipelineFrom != nil:
		src := *opts.PipelineFrom
		src.Platform = platform
		src.Sessions = sessions
		return pipeline.Load(src)
	}
	return pipeline.Load(pipeline.Source{Format: pipeline.FormatBMv2, Sessions: sessions})
}

// seed saves the initial configuration as the first revision. A shared
// store is seeded only while it holds none: of daemons started at once,
// one seeds and the others run the revision it saved.
func (d *Daemon) seed(data []byte, cfg *config.Config) ([]byte, Revision, *config.Config, error) {
	comment := "initial configuration from " + d.opts.InitialConfig
	s := d.caps.seed
	if s == nil {
		rev, err := d.store.Save(data, comment, d.now())
		return data, rev, cfg, err
	}
	if _, err := s.Seed(data, comment, d.now()); err != nil {
		return nil, Revision{}, nil, err
	}
	data, rev, err := d.store.Running()
	if err != nil {
		return nil, Revision{}, nil, fmt.Errorf("daemon: %w", err)
	}
	if cfg, err = config.Parse(data); err != nil {
		return nil, Revision{}, nil, fmt.Errorf("daemon: running configuration (revision %d) is invalid: %w", rev.Number, err)
	}
	return data, rev, cfg, nil
}

// seedInitial checks the initial configuration and saves it as the first
// revision; it returns the running configuration then (another daemon's
// when it seeded a shared store first).
func (d *Daemon) seedInitial(own *Store, data []byte, cfg *config.Config) ([]byte, Revision, *config.Config, error) {
	comp, opts := d.comp, d.opts
	// Refused before it reaches the store, what every daemon would
	// then refuse: rules past the pushed build's tables.
	if err := comp.CheckCapacity(cfg); err != nil {
		return nil, Revision{}, nil, fmt.Errorf("daemon: %s: %w", opts.InitialConfig, err)
	}
	if _, err := cpuPortOf(cfg, opts.CPUPort); err != nil {
		return nil, Revision{}, nil, fmt.Errorf("daemon: %s: %w", opts.InitialConfig, err)
	}
	if own != nil {
		// Every state directory holds its runtime state (none proven
		// yet), with its check, before its first revision, so a
		// removed or edited runtime.json is noticed.
		rt := Runtime{Up: []string{}}
		if fileExists(filepath.Join(own.Dir(), "runtime.json")) {
			var err error
			if rt, err = own.LoadRuntime(); err != nil {
				return nil, Revision{}, nil, err
			}
		}
		if err := own.SaveRuntime(rt); err != nil {
			return nil, Revision{}, nil, err
		}
	}
	data, rev, cfg, err := d.seed(data, cfg)
	if err != nil {
		return nil, Revision{}, nil, err
	}
	// Another daemon may have seeded first, with its own site.
	if err := comp.CheckPlatform(cfg.Platform); err != nil {
		return nil, Revision{}, nil, fmt.Errorf("daemon: revision %d: %w", rev.Number, err)
	}
	return data, rev, cfg, nil
}

// loadRuntime reads the saved runtime state for the site cfg.
func loadRuntime(store StateStore, caps storeCaps, cfg *config.Config) (Runtime, error) {
	rt, err := store.LoadRuntime()
	if err != nil {
		return rt, err
	}
	if ls := caps.dir; ls != nil && rt.Up == nil && fileExists(filepath.Join(ls.Dir(), "runtime.json")) {
		// Runtime state saved before proven filters were recorded: every
		// filter not down was forwarding, and keeps doing so.
		for _, fg := range cfg.FilterGroups {
			if !slices.Contains(rt.Down, fg.Name) {
				rt.Up = append(rt.Up, fg.Name)
			}
		}
	}
	return rt, nil
}

// Pipeline returns the pipeline the daemon pushes to the switch.
func (d *Daemon) Pipeline() *pipeline.Pipeline { return d.pipeline }

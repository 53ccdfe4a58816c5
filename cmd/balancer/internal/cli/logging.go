package cli

import (
	"log/slog"
	"os"
	"strings"
)

// LogLevels are the levels --log-level (of the daemon, of sim) takes.
var LogLevels = []string{"debug", "info", "warn", "error"}

// NewLogger returns a text logger on stderr at the named level.
func NewLogger(level string) (*slog.Logger, error) {
	var l slog.Level
	switch strings.ToLower(level) {
	case "debug":
		l = slog.LevelDebug
	case "info", "":
		l = slog.LevelInfo
	case "warn", "warning":
		l = slog.LevelWarn
	case "error":
		l = slog.LevelError
	default:
		return nil, usagef("--log-level %q: want debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l})), nil
}

package main

import (
	"log/slog"
	"os"
	"strings"
)

// logLevels are the levels --log-level takes.
var logLevels = []string{"debug", "info", "warn", "error"}

// newLogger returns a text logger on stderr at the named level.
func newLogger(level string) (*slog.Logger, error) {
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

// Package config is the declarative model of one balancer site: ports,
// links, filter groups, balance groups, availability profiles and flow
// rules, as the operator writes them in YAML.
//
// Decode reads a document as written: strictly (an unknown key, a value of
// the wrong type, a fraction for a whole number, an explicit 0 where 0 is
// not allowed, a control character or invalid UTF-8 is an error with its
// line and path), within MaxConfigBytes, and with no defaults filled in, so
// that an edited configuration keeps what the operator left to the
// defaults. Parse and Load decode, then ApplyDefaults fills unset values
// and assigns ids, then Validate reports every problem at once, each a
// *FieldError with its path ("links[1].lan: ...") wrapping one of the
// package's sentinel errors; numbers out of range say the range and unit.
// Only a valid Config is returned. Marshal writes a Config back as YAML that
// decodes into an equal Config. Diff lists the changes between two
// configurations field by field.
//
// Port names: "P9" is unbroken front-panel port 9, "P41" lane 1 of port 4
// (when port 4 is broken out); "4/1", "9/0" and "9" are accepted too. A
// P-name that is both a lane and an unbroken port of the file is ambiguous
// and must be written in the <port>/<lane> form. By convention even ports
// (lanes) are LAN, odd ones WAN.
//
// Platforms (platform.go) describe, as data, how a switch model numbers its
// data-plane ports and how big its slot table is.
//
// The package is pure: no I/O beyond Load reading its file, no logging.
package config

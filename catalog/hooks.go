package catalog

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// Hook is one [[hooks]] entry of harn.toml (upstream Harn's keys): a
// handler function a run calls on a runtime event whose payload the
// pattern matches.
//
//	[[hooks]]
//	event = "PreToolUse"
//	pattern = "tool.name =~ \"write|edit\""   # default "*"
//	handler = "my_package::deny_writes"       # <module>::<function>
type Hook struct {
	Event, Pattern string
	// Module and Function split the handler at its last "::".
	Module, Function string
}

// HookEvents are the events a hook may name.
var HookEvents = []string{"PreToolUse", "PostToolUse", "PreAgentTurn", "PostAgentTurn",
	"WorkerSpawned", "WorkerProgressed", "WorkerWaitingForInput", "WorkerCompleted", "WorkerFailed", "WorkerCancelled"}

// Hooks returns the project's [[hooks]] in file order (none without a
// project file). An entry with an unknown event or a handler that is not
// <module>::<function> is an *Invalid naming the entry.
func (p Project) Hooks() ([]Hook, error) {
	if p.Path == "" {
		return nil, nil
	}
	var raw struct {
		Hooks []struct {
			Event   string  `toml:"event"`
			Pattern *string `toml:"pattern"`
			Handler string  `toml:"handler"`
		} `toml:"hooks"`
	}
	bad := func(format string, a ...any) error {
		return &Invalid{Path: p.Path, Err: fmt.Errorf("%s: %s", filepath.ToSlash(p.Path), fmt.Sprintf(format, a...))}
	}
	if err := toml.Unmarshal(p.Data, &raw); err != nil {
		return nil, bad("%v", err)
	}
	out := make([]Hook, 0, len(raw.Hooks))
	for i, h := range raw.Hooks {
		if !slices.Contains(HookEvents, h.Event) {
			return nil, bad("[[hooks]] entry %d: unknown event %q (one of %s)", i+1, h.Event, strings.Join(HookEvents, ", "))
		}
		mod, fn, ok := cutLast(h.Handler, "::")
		if !ok || mod == "" || fn == "" {
			return nil, bad("[[hooks]] entry %d: invalid hook handler %q: expected <module>::<function>", i+1, h.Handler)
		}
		pattern := "*"
		if h.Pattern != nil {
			pattern = *h.Pattern
		}
		out = append(out, Hook{Event: h.Event, Pattern: pattern, Module: mod, Function: fn})
	}
	return out, nil
}

func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// Package is what harn.toml says about the package itself: [package]
// name and the [exports] table (module name -> path relative to the
// project's folder).
type Package struct {
	Name    string
	Exports map[string]string
}

// Package returns the project's [package] name and [exports] (the zero
// Package without a project file, or when the file does not decode;
// Config reports that error).
func (p Project) Package() Package {
	var raw struct {
		Package struct {
			Name string `toml:"name"`
		} `toml:"package"`
		Exports map[string]string `toml:"exports"`
	}
	if p.Path == "" || toml.Unmarshal(p.Data, &raw) != nil {
		return Package{}
	}
	return Package{Name: raw.Package.Name, Exports: raw.Exports}
}

// ModulePath is the file a hook or trigger handler's module names, as
// upstream resolves it: the package's own name is lib.harn beside
// harn.toml, an [exports] key is its path; otherwise ok is false and the
// module is an import specification.
func (p Project) ModulePath(module string) (path string, ok bool) {
	pkg := p.Package()
	switch {
	case pkg.Name != "" && module == pkg.Name:
		return filepath.Join(p.Dir(), "lib.harn"), true
	case pkg.Exports[module] != "":
		return resolveIn(p.Dir(), pkg.Exports[module]), true
	}
	return "", false
}

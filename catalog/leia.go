package catalog

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// LeiaHost is what a project declares, in the [leia] table of its
// harn.toml, about the host its Leia programs are embedded in:
//
//	[leia]
//	go_modules = ["go:host/policy"]   # `import "go:..."` bindings the embedder registers
//	host_modules = ["billing"]        # globals the embedder installs
//
// The Leia checker accepts exactly these: an import or a global the
// project does not declare is still reported.
type LeiaHost struct {
	// Declared is true when the project has a [leia] table.
	Declared bool
	// GoModules are the `go:` import paths the embedder registers.
	GoModules []string
	// HostModules are the global names the embedder installs.
	HostModules []string
}

// Leia returns the project's [leia] declarations (none without a
// harn.toml or a [leia] table). The error is an *Invalid naming the key.
func (p Project) Leia() (LeiaHost, error) {
	if p.Path == "" {
		return LeiaHost{}, nil
	}
	origin := filepath.ToSlash(p.Path)
	var doc map[string]any
	if err := toml.Unmarshal(p.Data, &doc); err != nil {
		return LeiaHost{}, &Invalid{Path: p.Path, Err: fmt.Errorf("%s: %v", origin, err)}
	}
	v, ok := doc["leia"]
	if !ok {
		return LeiaHost{}, nil
	}
	table, ok := v.(map[string]any)
	if !ok {
		return LeiaHost{}, &Invalid{Path: p.Path, Err: fmt.Errorf("%s: leia: want a table", origin)}
	}
	h := LeiaHost{Declared: true}
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var dst *[]string
		switch k {
		case "go_modules":
			dst = &h.GoModules
		case "host_modules":
			dst = &h.HostModules
		default:
			return LeiaHost{}, &Invalid{Path: p.Path, Err: fmt.Errorf("%s: leia: unknown key %q (want go_modules or host_modules)", origin, k)}
		}
		list, ok := table[k].([]any)
		if !ok {
			return LeiaHost{}, &Invalid{Path: p.Path, Err: fmt.Errorf("%s: leia.%s: want a list of strings", origin, k)}
		}
		for i, v := range list {
			s, ok := v.(string)
			if !ok || s == "" {
				return LeiaHost{}, &Invalid{Path: p.Path, Err: fmt.Errorf("%s: leia.%s[%d]: want a non-empty string", origin, k, i)}
			}
			if k == "go_modules" && !strings.HasPrefix(s, "go:") {
				return LeiaHost{}, &Invalid{Path: p.Path, Err: fmt.Errorf("%s: leia.go_modules[%d]: %q is not a go: import path", origin, i, s)}
			}
			*dst = append(*dst, s)
		}
	}
	return h, nil
}

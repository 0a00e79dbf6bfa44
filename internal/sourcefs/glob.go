package sourcefs

import (
	"path/filepath"
	"strings"
)

// GlobMatch matches a slash-separated path against a glob where `**`
// spans folders and `*`, `?` and `[...]` stay within one (the globs of a
// program's fs calls and of harn.toml's per-path settings).
func GlobMatch(pattern, name string) bool {
	return globParts(strings.Split(pattern, "/"), strings.Split(name, "/"), 0)
}

func globParts(pat, name []string, depth int) bool {
	if depth > 64 {
		return false
	}
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if globParts(pat[1:], name[i:], depth+1) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := filepath.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

package catalog

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// The [evaluation] table of harn.toml configures decision evaluations:
//
//	[evaluation]
//	cache = ".harn/evaluations"   # opt-in evaluation cache folder
//
// cache grants the runtime a folder for its evaluation cache (see
// runtime/evaluate's Cache): a relative path, resolved against the folder
// holding harn.toml, that stays inside it. An absolute path or one that
// climbs out ("..") is an error naming the key: a project file found above
// a program may grant writing inside its own project only (the
// --evaluation-cache flag, given by the user, may name any folder). An
// unknown key of the table is an error naming it.

// evaluationKeys are the keys of the [evaluation] table.
var evaluationKeys = []string{"cache"}

// parseSettings reads the [evaluation] table of a harn.toml at origin.
func parseSettings(origin string, data []byte) (evaluationCache string, err error) {
	var raw struct {
		Evaluation map[string]any `toml:"evaluation"`
	}
	if err := toml.Unmarshal(data, &raw); err != nil {
		return "", fmt.Errorf("%s: %v", origin, err)
	}
	for k := range raw.Evaluation {
		found := false
		for _, known := range evaluationKeys {
			found = found || k == known
		}
		if !found {
			return "", fmt.Errorf("%s: [evaluation]: unknown key %q (known: %s)", origin, k, strings.Join(evaluationKeys, ", "))
		}
	}
	v, ok := raw.Evaluation["cache"]
	if !ok {
		return "", nil
	}
	dir, isString := v.(string)
	if !isString || dir == "" {
		return "", fmt.Errorf("%s: [evaluation]: cache must be a non-empty string (a folder relative to %s)", origin, File)
	}
	slash := filepath.ToSlash(dir)
	clean := path.Clean(slash)
	if path.IsAbs(slash) || filepath.IsAbs(dir) || filepath.VolumeName(dir) != "" || clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%s: [evaluation]: cache %q must be a folder inside the project (relative to %s, without ..); --evaluation-cache may name any folder", origin, dir, File)
	}
	return filepath.Join(filepath.Dir(filepath.FromSlash(origin)), filepath.FromSlash(clean)), nil
}

// EvaluationCache is the evaluation cache folder the project's harn.toml
// grants ([evaluation] cache, resolved against the harn.toml's folder);
// "" when none is granted (the built-in catalog grants none).
func (c *Catalog) EvaluationCache() string { return c.evaluationCache }

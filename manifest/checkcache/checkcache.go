// Package checkcache stores check results on disk so that an unchanged
// file is not checked again: its diagnostics and site manifest are
// reproduced exactly from the cache.
//
// An entry is found by a key made of the file's absolute path, the path it
// is reported under, the SHA-256 of its content and a salt naming
// everything else the result depends on globally (the checker build). An
// entry records what else the result depends on, and is used only while
// all of it is unchanged:
//
//   - Deps: files that are not modules (the route catalog harn.toml, and
//     the candidates whose absence mattered), each with the SHA-256 it had;
//   - Closure: the fingerprint of the file's import closure (see
//     Fingerprint), a hash over every module the file reaches through
//     imports, each by path and content, and the import edges between
//     them. A run recomputes it from the modules' current contents and
//     the module records (a module's imports, stored once per content, so
//     that no module is parsed to validate an entry). Validating every
//     file of a run costs one read of each module, however long the
//     import chains.
//
// What the cache trusts, and what it does not:
//
//   - It trusts its own folder only when the folder is private: Open
//     refuses a folder that others can write to or that another user owns,
//     and Get ignores a pack owned by another user. Anyone who can write
//     the folder could otherwise make a failing check pass.
//   - Every entry and module record carries the SHA-256 of its content and
//     is ignored when it does not match, so a truncated, corrupted or
//     hand-edited entry is checked again rather than trusted. (The
//     checksum detects damage, not an attacker who can write the folder;
//     the folder's permissions are what keep attackers out.)
//   - It trusts the salt to name the checker build: a different build
//     never reads another build's entries.
//
// A run's entries and module records go into one pack file, written as
// the run goes and renamed into place when it ends (Flush), so two
// processes checking at once never see a torn pack, and a cold run
// creates one file instead of one per checked file (creating thousands of
// small files in one folder was a sixth of a cold run's CPU time, and the
// file system's locks on the folder made parallel workers wait on each
// other; see pack.go). A record whose checksum fails, or a pack that does
// not decode or comes from another format version, is ignored. The folder
// checks and the owner check are package internal/sealed's, which the
// evaluation cache shares.
package checkcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/internal/sealed"
	"github.com/harnlang/harn-check/internal/sourcefs"
)

// formatVersion changes whenever the entry encoding changes.
const formatVersion = 3

// Dep is a file a result depends on. An empty SHA256 records that the
// file did not exist (a route catalog looked for and not found).
type Dep struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Module is what the cache knows of one module: its path, the SHA-256 of
// its content ("" when it does not exist or cannot be read) and the paths
// of the modules it imports, in import order, missing ones included.
type Module struct {
	Path    string   `json:"path"`
	SHA256  string   `json:"sha256"`
	Imports []string `json:"imports"`
}

// Entry is a cached check result for one file.
type Entry struct {
	Diagnostics []diagnostics.Diagnostic
	// Manifest is the file's encoded site manifest; nil means null.
	Manifest json.RawMessage
	// Sources are the contents of other files the diagnostics point into.
	Sources map[string][]byte
	// Deps are the files the result depends on that are not modules.
	Deps []Dep
	// Closure is the fingerprint of the file's import closure; "" for a
	// file of a language without modules.
	Closure string
}

// Cache is a directory of packs of entries and module records. It is
// safe for concurrent use; call Flush (or Close) when a run ends, so that
// later runs see what it stored.
type Cache struct {
	dir string
	p   packs
}

// DefaultDir returns the cache directory under the user cache directory.
func DefaultDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "harn-check", "check"), nil
}

// UnsafeError is Open's refusal of a folder it must not trust.
type UnsafeError = sealed.UnsafeError

// Open returns the cache stored in dir, creating the directory (readable
// and writable by its owner only). A folder that is writable by others or
// owned by another user is refused with an *UnsafeError.
func Open(dir string) (*Cache, error) {
	if err := sealed.OpenDir(dir); err != nil {
		return nil, err
	}
	return &Cache{dir: dir}, nil
}

// Dir returns the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// HashBytes returns the lower-case hex SHA-256 of b, the content hash
// used in keys and deps.
func HashBytes(b []byte) string { return sealed.Sum(b) }

// HashFile returns the content hash of the file at path, or "" when it
// does not exist or cannot be read as a source file (sourcefs.Read).
func HashFile(path string) string {
	b, err := sourcefs.Read(path, 0)
	if err != nil {
		return ""
	}
	return HashBytes(b)
}

// Key returns the key of a result for the file at path (callers include
// its absolute path and the path it is reported under) with the given
// content under salt.
func Key(salt, path string, content []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "harn-check cache v%d\x00%s\x00%s\x00", formatVersion, salt, path)
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// moduleKey is the key of the module record of path with content hash sum.
func moduleKey(salt, path, sum string) string {
	h := sha256.New()
	fmt.Fprintf(h, "harn-check module v%d\x00%s\x00%s\x00%s", formatVersion, salt, path, sum)
	return hex.EncodeToString(h.Sum(nil))
}

// wire types keep the on-disk format independent of the model.
type wireEntry struct {
	Diagnostics []wireDiagnostic  `json:"diagnostics"`
	Manifest    json.RawMessage   `json:"manifest"`
	Sources     map[string][]byte `json:"sources"`
	Deps        []Dep             `json:"deps"`
	Closure     string            `json:"closure"`
}

type wireDiagnostic struct {
	Path     string                `json:"path"`
	Source   string                `json:"source"`
	Code     string                `json:"code"`
	Severity string                `json:"severity"`
	Message  string                `json:"message"`
	Span     diagnostics.Span      `json:"span"`
	Related  []diagnostics.Related `json:"related"`
	Help     string                `json:"help"`
	Fixes    []diagnostics.Fix     `json:"fixes"`
}

// load reads the record stored under key into v, verifying its
// checksum (see pack.go).
func (c *Cache) load(key string, v any) bool {
	payload, ok := c.lookup(key)
	return ok && json.Unmarshal(payload, v) == nil
}

// Get returns the entry stored under key if it exists, is intact, and
// every dep still has the recorded content (hash reports a file's current
// content hash, "" for a missing file). The closure fingerprint is the
// caller's to compare (see Fingerprinter).
func (c *Cache) Get(key string, hash func(path string) string) (*Entry, bool) {
	var w wireEntry
	if !c.load(key, &w) {
		return nil, false
	}
	for _, d := range w.Deps {
		if hash(d.Path) != d.SHA256 {
			return nil, false
		}
	}
	e := &Entry{Manifest: w.Manifest, Deps: w.Deps, Closure: w.Closure}
	if len(w.Manifest) == 0 || string(w.Manifest) == "null" {
		e.Manifest = nil
	}
	for _, d := range w.Diagnostics {
		sev, ok := diagnostics.ParseSeverity(d.Severity)
		if !ok {
			return nil, false
		}
		e.Diagnostics = append(e.Diagnostics, diagnostics.Diagnostic{
			Path: d.Path, Source: diagnostics.Source(d.Source), Code: d.Code, Severity: sev, Message: d.Message,
			Span: d.Span, Related: d.Related, Help: d.Help, Fixes: d.Fixes,
		})
	}
	if len(w.Sources) > 0 {
		e.Sources = w.Sources
	}
	return e, true
}

// Put stores e under key atomically.
func (c *Cache) Put(key string, e *Entry) error {
	w := wireEntry{Manifest: e.Manifest, Deps: e.Deps, Closure: e.Closure, Diagnostics: []wireDiagnostic{}}
	if w.Manifest == nil {
		w.Manifest = json.RawMessage("null")
	}
	for _, d := range e.Diagnostics {
		w.Diagnostics = append(w.Diagnostics, wireDiagnostic{
			Path: d.Path, Source: string(d.Source), Code: d.Code, Severity: d.Severity.String(), Message: d.Message,
			Span: d.Span, Related: d.Related, Help: d.Help, Fixes: d.Fixes,
		})
	}
	if len(e.Sources) > 0 {
		w.Sources = e.Sources
	}
	return c.store(key, w)
}

// GetModule returns the module record of path with content hash sum.
func (c *Cache) GetModule(salt, path, sum string) (Module, bool) {
	var m Module
	if !c.load(moduleKey(salt, path, sum), &m) || m.Path != path || m.SHA256 != sum {
		return Module{}, false
	}
	return m, true
}

// PutModule stores a module record.
func (c *Cache) PutModule(salt string, m Module) error {
	return c.store(moduleKey(salt, m.Path, m.SHA256), m)
}

// store adds v under key to this run's pack.
func (c *Cache) store(key string, v any) error {
	payload, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.save(key, payload)
}

// Clear removes every entry, the ones stored and not flushed yet too.
func (c *Cache) Clear() error {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	c.waitWritesLocked()
	if c.p.out != nil {
		c.dropOutLocked()
	}
	for _, f := range c.p.read {
		f.Close()
	}
	c.p.read, c.p.index, c.p.loaded = map[string]*os.File{}, map[string]loc{}, true
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(c.dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// Fingerprinter computes closure fingerprints. A module's fingerprint is
// a hash over the strongly connected component it belongs to in the import
// graph (each member's path, content hash and imports, sorted) and the
// fingerprints of the components it imports, so it changes exactly when a
// module the file reaches changes content, appears, disappears, or
// imports differently. Components are found with Tarjan's algorithm
// without recursion, and fingerprints are remembered, so fingerprinting
// every file of a run costs time linear in the import graph. Not safe for
// concurrent use.
type Fingerprinter struct {
	// Lookup returns the module record of path as it is now; false when
	// it is unknown, which makes every fingerprint that needs it unknown.
	Lookup func(path string) (Module, bool)
	fps    map[string]string
	failed map[string]bool
}

// Fingerprint returns the fingerprint of root's closure; false when a
// module of it has no record.
func (f *Fingerprinter) Fingerprint(root string) (string, bool) {
	if f.fps == nil {
		f.fps, f.failed = map[string]string{}, map[string]bool{}
	}
	if fp, ok := f.fps[root]; ok {
		return fp, true
	}
	if f.failed[root] {
		return "", false
	}
	type node struct {
		m             Module
		index, low    int
		next          int // next import to visit
		onStack, done bool
	}
	nodes := map[string]*node{}
	var stack []*node // Tarjan's stack
	var call []*node  // the DFS path
	index := 0
	fail := func() (string, bool) {
		for p := range nodes {
			if _, ok := f.fps[p]; !ok {
				f.failed[p] = true
			}
		}
		return "", false
	}
	visit := func(p string) (*node, bool) {
		m, ok := f.Lookup(p)
		if !ok {
			return nil, false
		}
		n := &node{m: m, index: index, low: index, onStack: true}
		index++
		nodes[p] = n
		stack = append(stack, n)
		call = append(call, n)
		return n, true
	}
	if _, ok := visit(root); !ok {
		return fail()
	}
	for len(call) > 0 {
		n := call[len(call)-1]
		if n.next < len(n.m.Imports) {
			imp := n.m.Imports[n.next]
			n.next++
			if _, ok := f.fps[imp]; ok {
				continue // a finished component of an earlier root
			}
			if f.failed[imp] {
				return fail()
			}
			if w, seen := nodes[imp]; seen {
				if w.onStack {
					n.low = min(n.low, w.index)
				}
				continue
			}
			if _, ok := visit(imp); !ok {
				return fail()
			}
			continue
		}
		call = call[:len(call)-1]
		if len(call) > 0 {
			parent := call[len(call)-1]
			parent.low = min(parent.low, n.low)
		}
		if n.low != n.index {
			continue
		}
		// n roots a component: pop it and hash it.
		var members []*node
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			w.onStack = false
			members = append(members, w)
			if w == n {
				break
			}
		}
		inside := map[string]bool{}
		for _, w := range members {
			inside[w.m.Path] = true
		}
		sort.Slice(members, func(i, j int) bool { return members[i].m.Path < members[j].m.Path })
		h := sha256.New()
		fmt.Fprintf(h, "component v%d\x00", formatVersion)
		var exits []string
		for _, w := range members {
			fmt.Fprintf(h, "%s\x00%s\x00%d\x00", w.m.Path, w.m.SHA256, len(w.m.Imports))
			for _, imp := range w.m.Imports {
				fmt.Fprintf(h, "%s\x00", imp)
				if !inside[imp] {
					exits = append(exits, f.fps[imp])
				}
			}
		}
		slices.Sort(exits)
		h.Write([]byte(strings.Join(slices.Compact(exits), "\x00")))
		fp := hex.EncodeToString(h.Sum(nil))
		for _, w := range members {
			f.fps[w.m.Path] = fp
		}
	}
	return f.fps[root], true
}

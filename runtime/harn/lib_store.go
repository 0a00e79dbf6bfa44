package harn

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// The store and metadata families: a key/value store persisted as
// store.json under the state root, and per-directory metadata in
// namespaces (child folders inherit their parents' fields) kept in memory
// until metadata_save writes one entries.json shard per namespace under
// <state root>/metadata. scan_directory lists a folder's entries. The
// state root is .harn in the program's folder, or HARN_STATE_DIR; every
// read and write goes through the host.

// stateRoot is the folder runtime state lives in: HARN_STATE_DIR when
// set, else .harn in the program's folder.
func stateRoot(in *Interp) string {
	if dir, ok := in.host.LookupEnv("HARN_STATE_DIR"); ok && strings.TrimSpace(dir) != "" {
		return in.host.Abs(dir)
	}
	return filepath.Join(in.host.Root(), ".harn")
}

// JSONData is v as JSON data: values JSON cannot hold become nil.
func JSONData(v Value) Value {
	var b strings.Builder
	writeJSON(&b, v, 0)
	out, err := ParseJSON(b.String())
	if err != nil {
		return Nil
	}
	return out
}

// writeStateJSON writes data as indented JSON to path, creating its folder.
func writeStateJSON(c *Call, path string, data any) error {
	b, err := json.MarshalIndent(data, "", "  ")
	if err != nil {
		return err
	}
	h := c.th.in.host
	if err := h.Mkdir(filepath.Dir(path), true); err != nil {
		return err
	}
	return h.WriteFile(path, b)
}

type kvStore struct {
	mu     sync.Mutex
	path   string
	loaded bool
	data   map[string]Value
}

func storeOf(c *Call) *kvStore {
	in := c.th.in
	s := in.State("store", func() any {
		return &kvStore{path: filepath.Join(stateRoot(in), "store.json"), data: map[string]Value{}}
	}).(*kvStore)
	s.mu.Lock()
	if !s.loaded {
		s.loaded = true
		if b, err := in.host.ReadFile(s.path); err == nil {
			if v, err := ParseJSON(string(b)); err == nil && v.k == KindDict {
				d := v.r.(*Dict)
				for _, k := range d.Keys() {
					s.data[k], _ = d.Get(k)
				}
			}
		}
	}
	s.mu.Unlock()
	return s
}

func (s *kvStore) keys() []string {
	keys := make([]string, 0, len(s.data))
	for k := range s.data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// save writes the store; the caller holds s.mu.
func (s *kvStore) save(c *Call) error {
	m := make(map[string]any, len(s.data))
	for k, v := range s.data {
		m[k] = toGo(v)
	}
	if err := writeStateJSON(c, s.path, m); err != nil {
		return ioError("store write error", err)
	}
	return nil
}

func installStore(lib *Library) {
	lib.Builtin("store_get", func(c *Call, args []Value) (Value, error) {
		s := storeOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		v, ok := s.data[Display(Arg(args, 0))]
		if !ok {
			return Nil, nil
		}
		return v, nil
	})
	lib.Builtin("store_set", func(c *Call, args []Value) (Value, error) {
		s := storeOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.data[Display(Arg(args, 0))] = JSONData(Arg(args, 1))
		return Nil, s.save(c)
	})
	lib.Builtin("store_delete", func(c *Call, args []Value) (Value, error) {
		s := storeOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.data, Display(Arg(args, 0)))
		return Nil, s.save(c)
	})
	lib.Builtin("store_list", func(c *Call, args []Value) (Value, error) {
		s := storeOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		keys := s.keys()
		out := make([]Value, len(keys))
		for i, k := range keys {
			out[i] = Str(k)
		}
		return NewListValue(out), nil
	})
	lib.Builtin("store_save", func(c *Call, args []Value) (Value, error) {
		s := storeOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		return Nil, s.save(c)
	})
	lib.Builtin("store_clear", func(c *Call, args []Value) (Value, error) {
		s := storeOf(c)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.data = map[string]Value{}
		return Nil, s.save(c)
	})
	installMetadata(lib)
}

// metaDir is one directory's metadata: namespace -> field -> value.
type metaDir map[string]map[string]Value

type metadataStore struct {
	mu      sync.Mutex
	dir     string // <state root>/metadata
	loaded  bool
	dirty   bool
	entries map[string]metaDir // keyed by directory as given ("" is the root)
}

func metadataOf(c *Call) *metadataStore {
	in := c.th.in
	m := in.State("metadata", func() any {
		return &metadataStore{dir: filepath.Join(stateRoot(in), "metadata"), entries: map[string]metaDir{}}
	}).(*metadataStore)
	m.mu.Lock()
	if !m.loaded {
		m.loaded = true
		m.load(c)
	}
	return m // locked; the caller unlocks
}

// load reads the legacy root.json shard, then each namespace folder's
// entries.json.
func (m *metadataStore) load(c *Call) {
	h := c.th.in.host
	if b, err := h.ReadFile(filepath.Join(m.dir, "root.json")); err == nil {
		if v, err := ParseJSON(string(b)); err == nil && v.k == KindDict {
			if ents, ok := v.r.(*Dict).Get("entries"); ok && ents.k == KindDict {
				for _, dir := range ents.r.(*Dict).Keys() {
					meta, _ := ents.r.(*Dict).Get(dir)
					md := metaDir{}
					if meta.k == KindDict {
						if nss, ok := meta.r.(*Dict).Get("namespaces"); ok && nss.k == KindDict {
							for _, ns := range nss.r.(*Dict).Keys() {
								f, _ := nss.r.(*Dict).Get(ns)
								md[ns] = dictFields(f)
							}
						}
					}
					m.entries[dir] = md
				}
			}
		}
	}
	des, err := h.ReadDir(m.dir)
	if err != nil {
		return
	}
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		b, err := h.ReadFile(filepath.Join(m.dir, de.Name(), "entries.json"))
		if err != nil {
			continue
		}
		v, err := ParseJSON(string(b))
		if err != nil || v.k != KindDict {
			continue
		}
		ns, ok1 := v.r.(*Dict).Get("namespace")
		ents, ok2 := v.r.(*Dict).Get("entries")
		if !ok1 || ns.k != KindString || !ok2 || ents.k != KindDict {
			continue
		}
		for _, dir := range ents.r.(*Dict).Keys() {
			f, _ := ents.r.(*Dict).Get(dir)
			if m.entries[dir] == nil {
				m.entries[dir] = metaDir{}
			}
			m.entries[dir][ns.r.(string)] = dictFields(f)
		}
	}
}

func dictFields(v Value) map[string]Value {
	out := map[string]Value{}
	if v.k == KindDict {
		for _, k := range v.r.(*Dict).Keys() {
			out[k], _ = v.r.(*Dict).Get(k)
		}
	}
	return out
}

func (m *metadataStore) dirs() []string {
	out := make([]string, 0, len(m.entries))
	for d := range m.entries {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// resolve merges the root's metadata and then each ancestor's down to dir.
func (m *metadataStore) resolve(dir string) metaDir {
	out := metaDir{}
	merge := func(src metaDir) {
		for ns, fields := range src {
			if out[ns] == nil {
				out[ns] = map[string]Value{}
			}
			for k, v := range fields {
				out[ns][k] = v
			}
		}
	}
	if root, ok := m.entries["."]; ok {
		merge(root)
	} else if root, ok := m.entries[""]; ok {
		merge(root)
	}
	cur := ""
	for part := range strings.SplitSeq(dir, "/") {
		if part == "" || part == "." {
			continue
		}
		if cur == "" {
			cur = part
		} else {
			cur += "/" + part
		}
		if md, ok := m.entries[cur]; ok {
			merge(md)
		}
	}
	return out
}

func fieldsValue(f map[string]Value) Value {
	d := NewDict(len(f))
	for k, v := range f {
		d.Set(k, v)
	}
	return DictValue(d)
}

func (md metaDir) value() Value {
	d := NewDict(len(md))
	for ns, f := range md {
		d.Set(ns, fieldsValue(f))
	}
	return DictValue(d)
}

func normalizeMetaDir(dir string) string {
	if strings.TrimSpace(dir) == "" || dir == "." {
		return "."
	}
	return dir
}

// optName is an optional string argument: nil when absent or nil.
func optName(args []Value, i int) (string, bool) {
	v := Arg(args, i)
	if v.k == KindNil {
		return "", false
	}
	return Display(v), true
}

// metaFullDir is a metadata directory's path under the program's folder.
func metaFullDir(c *Call, dir string) string {
	if dir == "" {
		return c.th.in.host.Root()
	}
	return filepath.Join(c.th.in.host.Root(), dir)
}

// folderHash is the FNV-1a hash (hex) of a folder's sorted entries: name
// and size, plus the modification second when withTime is set.
func folderHash(c *Call, dir string, withTime bool) string {
	h := c.th.in.host
	var parts []string
	if des, err := h.ReadDir(dir); err == nil {
		for _, de := range des {
			fi, err := de.Info()
			if err != nil {
				continue
			}
			p := fmt.Sprintf("%s:%d", de.Name(), fi.Size())
			if withTime {
				p += fmt.Sprintf(":%d", fi.ModTime().Unix())
			}
			parts = append(parts, p)
		}
	}
	sort.Strings(parts)
	var x uint64 = 0xcbf29ce484222325
	for _, b := range []byte(strings.Join(parts, "|")) {
		x ^= uint64(b)
		x *= 0x100000001b3
	}
	return fmt.Sprintf("%x", x)
}

// stale compares each directory's stored classification hashes with the
// folder: a changed structure (names, sizes) is tier 1, else changed
// content (modification times) tier 2.
func (m *metadataStore) stale(c *Call) Value {
	var t1, t2 []Value
	for _, dir := range m.dirs() {
		cls := m.entries[dir]["classification"]
		full := metaFullDir(c, dir)
		if v, ok := cls["structureHash"]; ok && v.k == KindString {
			if folderHash(c, full, false) != v.r.(string) {
				t1 = append(t1, Str(normalizeMetaDir(dir)))
				continue
			}
		}
		if v, ok := cls["contentHash"]; ok && v.k == KindString {
			if folderHash(c, full, true) != v.r.(string) {
				t2 = append(t2, Str(normalizeMetaDir(dir)))
			}
		}
	}
	d := NewDict(3)
	d.Set("any_stale", Bool(len(t1)+len(t2) > 0))
	d.Set("tier1", NewListValue(t1))
	d.Set("tier2", NewListValue(t2))
	return DictValue(d)
}

// save writes one shard per namespace.
func (m *metadataStore) save(c *Call) error {
	if !m.dirty {
		return nil
	}
	shards := map[string]map[string]any{}
	for dir, md := range m.entries {
		for ns, f := range md {
			if shards[ns] == nil {
				shards[ns] = map[string]any{}
			}
			shards[ns][dir] = toGo(fieldsValue(f))
		}
	}
	now := c.th.in.host.Now().UTC().Format(time.RFC3339)
	for ns, ents := range shards {
		doc := map[string]any{"version": 1, "namespace": ns, "backend": "filesystem",
			"generatedAt": now, "entries": ents}
		if err := writeStateJSON(c, filepath.Join(m.dir, namespaceComponent(ns), "entries.json"), doc); err != nil {
			return ioError("metadata write", err)
		}
	}
	m.dirty = false
	return nil
}

// namespaceComponent makes a namespace safe as one path component.
func namespaceComponent(ns string) string {
	var b strings.Builder
	for _, r := range ns {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "_%02X", r)
		}
	}
	s := b.String()
	if s == "" || s == "." || s == ".." {
		return "_"
	}
	return s
}

func installMetadata(lib *Library) {
	with := func(fn func(c *Call, m *metadataStore, args []Value) (Value, error)) func(c *Call, args []Value) (Value, error) {
		return func(c *Call, args []Value) (Value, error) {
			m := metadataOf(c)
			defer m.mu.Unlock()
			return fn(c, m, args)
		}
	}
	lib.Builtin("metadata_get", with(func(c *Call, m *metadataStore, args []Value) (Value, error) {
		r := m.resolve(Display(Arg(args, 0)))
		if ns, ok := optName(args, 1); ok {
			f, ok := r[ns]
			if !ok {
				return Nil, nil
			}
			return fieldsValue(f), nil
		}
		flat := map[string]Value{}
		nss := make([]string, 0, len(r))
		for ns := range r {
			nss = append(nss, ns)
		}
		sort.Strings(nss)
		for _, ns := range nss {
			for k, v := range r[ns] {
				flat[k] = v
			}
		}
		if len(flat) == 0 {
			return Nil, nil
		}
		return fieldsValue(flat), nil
	}))
	lib.Builtin("metadata_resolve", with(func(c *Call, m *metadataStore, args []Value) (Value, error) {
		r := m.resolve(Display(Arg(args, 0)))
		if ns, ok := optName(args, 1); ok {
			f, ok := r[ns]
			if !ok {
				return Nil, nil
			}
			return fieldsValue(f), nil
		}
		if len(r) == 0 {
			return Nil, nil
		}
		return r.value(), nil
	}))
	lib.Builtin("metadata_entries", with(func(c *Call, m *metadataStore, args []Value) (Value, error) {
		ns, hasNS := optName(args, 0)
		var out []Value
		for _, dir := range m.dirs() {
			local, resolved := m.entries[dir], m.resolve(dir)
			d := NewDict(3)
			d.Set("dir", Str(normalizeMetaDir(dir)))
			if hasNS {
				d.Set("local", Nil)
				if f, ok := local[ns]; ok {
					d.Set("local", fieldsValue(f))
				}
				d.Set("resolved", Nil)
				if f, ok := resolved[ns]; ok {
					d.Set("resolved", fieldsValue(f))
				}
			} else {
				d.Set("local", local.value())
				d.Set("resolved", resolved.value())
			}
			out = append(out, DictValue(d))
		}
		return NewListValue(out), nil
	}))
	lib.Builtin("metadata_set", with(func(c *Call, m *metadataStore, args []Value) (Value, error) {
		dir, ns, data := Display(Arg(args, 0)), Display(Arg(args, 1)), Arg(args, 2)
		if data.k != KindDict || data.r.(*Dict).Len() == 0 {
			return Nil, nil
		}
		if m.entries[dir] == nil {
			m.entries[dir] = metaDir{}
		}
		if m.entries[dir][ns] == nil {
			m.entries[dir][ns] = map[string]Value{}
		}
		d := data.r.(*Dict)
		for _, k := range d.Keys() {
			v, _ := d.Get(k)
			m.entries[dir][ns][k] = JSONData(v)
		}
		m.dirty = true
		return Nil, nil
	}))
	lib.Builtin("metadata_save", with(func(c *Call, m *metadataStore, args []Value) (Value, error) {
		return Nil, m.save(c)
	}))
	lib.Builtin("metadata_stale", with(func(c *Call, m *metadataStore, args []Value) (Value, error) {
		return m.stale(c), nil
	}))
	lib.Builtin("metadata_refresh_hashes", with(func(c *Call, m *metadataStore, args []Value) (Value, error) {
		for _, dir := range m.dirs() {
			if m.entries[dir]["classification"] == nil {
				m.entries[dir]["classification"] = map[string]Value{}
			}
			m.entries[dir]["classification"]["structureHash"] = Str(folderHash(c, metaFullDir(c, dir), false))
		}
		m.dirty = true
		return Nil, nil
	}))
	lib.Builtin("metadata_status", with(func(c *Call, m *metadataStore, args []Value) (Value, error) {
		ns, hasNS := optName(args, 0)
		names := map[string]bool{}
		var dirs, noStructure, noContent []Value
		for _, dir := range m.dirs() {
			md := m.entries[dir]
			dirs = append(dirs, Str(normalizeMetaDir(dir)))
			for n := range md {
				names[n] = true
			}
			f, ok := md[ns]
			if !hasNS || !ok {
				f, ok = md["classification"]
			}
			if !ok {
				continue
			}
			_, err := c.th.in.host.Stat(metaFullDir(c, dir))
			exists := err == nil
			if _, has := f["structureHash"]; !has && exists {
				noStructure = append(noStructure, Str(normalizeMetaDir(dir)))
			}
			if _, has := f["contentHash"]; !has && exists {
				noContent = append(noContent, Str(normalizeMetaDir(dir)))
			}
		}
		nsList := make([]string, 0, len(names))
		for n := range names {
			nsList = append(nsList, n)
		}
		sort.Strings(nsList)
		nsVals := make([]Value, len(nsList))
		for i, n := range nsList {
			nsVals[i] = Str(n)
		}
		d := NewDict(7)
		d.Set("directory_count", Int(int64(len(m.entries))))
		d.Set("namespace_count", Int(int64(len(nsList))))
		d.Set("namespaces", NewListValue(nsVals))
		d.Set("directories", NewListValue(dirs))
		d.Set("missing_structure_hash", NewListValue(noStructure))
		d.Set("missing_content_hash", NewListValue(noContent))
		d.Set("stale", m.stale(c))
		return DictValue(d), nil
	}))
	lib.Builtin("compute_content_hash", func(c *Call, args []Value) (Value, error) {
		return Str(folderHash(c, metaFullDir(c, Display(Arg(args, 0))), true)), nil
	})
	lib.Builtin("invalidate_facts", func(c *Call, args []Value) (Value, error) { return Nil, nil })
	lib.Builtin("scan_directory", scanDirectory)
}

// scanDirectory is scan_directory(path?, pattern_or_options?, options?):
// the entries under path (relative to the program's folder) to
// max_depth (5), hidden names skipped unless include_hidden, each
// {path, size, modified, is_dir}; a pattern keeps matching paths.
func scanDirectory(c *Call, args []Value) (Value, error) {
	pattern, maxDepth := "", 5
	hidden, dirs, files := false, true, true
	apply := func(v Value) {
		if v.k != KindDict {
			return
		}
		d := v.r.(*Dict)
		if p, ok := d.Get("pattern"); ok && Display(p) != "" {
			pattern = Display(p)
		}
		if x, ok := d.Get("max_depth"); ok && x.k == KindInt && x.AsInt() >= 0 {
			maxDepth = int(x.AsInt())
		}
		flag := func(key string, dst *bool) {
			if x, ok := d.Get(key); ok && x.k == KindBool {
				*dst = x.AsBool()
			}
		}
		flag("include_hidden", &hidden)
		flag("include_dirs", &dirs)
		flag("include_files", &files)
	}
	if p := Arg(args, 1); p.k == KindString {
		pattern = p.r.(string)
	} else {
		apply(p)
	}
	apply(Arg(args, 2))
	h := c.th.in.host
	base := h.Root()
	start := base
	if rel := Display(Arg(args, 0)); rel != "" && Arg(args, 0).k != KindNil {
		start = h.Abs(rel)
	}
	var out []Value
	var walk func(dir string, depth int) error
	walk = func(dir string, depth int) error {
		if depth > maxDepth {
			return nil
		}
		des, err := h.ReadDir(dir)
		if err != nil {
			if depth == 0 && !isNotExist(err) {
				return ioError("scan_directory", err)
			}
			return nil
		}
		for _, de := range des {
			name := de.Name()
			if !hidden && strings.HasPrefix(name, ".") {
				continue
			}
			fi, err := de.Info()
			if err != nil {
				continue
			}
			full := filepath.Join(dir, name)
			rel, rerr := filepath.Rel(base, full)
			if rerr != nil {
				rel = full
			}
			rel = filepath.ToSlash(rel)
			if pattern == "" || scanGlob(pattern, rel) {
				d := NewDict(4)
				d.Set("path", Str(rel))
				d.Set("size", Int(fi.Size()))
				d.Set("modified", Int(fi.ModTime().Unix()))
				d.Set("is_dir", Bool(fi.IsDir()))
				if fi.IsDir() && dirs || !fi.IsDir() && files {
					out = append(out, DictValue(d))
				}
			}
			if fi.IsDir() {
				if err := walk(full, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(start, 0); err != nil {
		return Nil, err
	}
	return NewListValue(out), nil
}

func isNotExist(err error) bool { return err != nil && errors.Is(err, fs.ErrNotExist) }

// scanGlob is scan_directory's pattern: "pre**suf" by prefix and suffix,
// "pre*suf" likewise, anything else a substring.
func scanGlob(pattern, p string) bool {
	if parts := strings.Split(pattern, "**"); len(parts) == 2 {
		pre, suf := strings.TrimRight(parts[0], "/"), strings.TrimLeft(parts[1], "/")
		return (pre == "" || strings.HasPrefix(p, pre)) && (suf == "" || strings.HasSuffix(p, suf))
	}
	if parts := strings.Split(pattern, "*"); len(parts) == 2 {
		return strings.HasPrefix(p, parts[0]) && strings.HasSuffix(p, parts[1])
	}
	return strings.Contains(p, pattern)
}

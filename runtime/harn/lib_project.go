package harn

import (
	"encoding/json"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/harnlang/harn-check/catalog"
)

// std/project: what a folder is. project_scan(path, {tiers, depth,
// include_hidden, include_vendor, respect_gitignore}) reports the
// evidence of one folder: languages and frameworks whose catalog entry
// scores at least 0.5 (an anchor file, a lockfile, source files under the
// entry's globs), build systems, anchors, lockfiles, the version control
// it is under, default build and test commands, and with the "config"
// tier the package name, package.json scripts, Makefile targets,
// Dockerfile RUN commands and README code fences. project_scan_tree walks
// the folder (gitignore and vendor folders skipped unless asked) and
// scans each folder that looks like a project root, keyed by its relative
// path ("." first). project_catalog lists the ecosystems known. Every
// read goes through the host: a folder outside the program's may be
// scanned only with --allow-fs.

// projectEntry is one ecosystem of the catalog.
type projectEntry struct {
	id                        string
	languages, frameworks     []string
	buildSystems              []string
	anchors, lockfiles, globs []string
	buildCmd, testCmd         string
	anchorScore               float64
}

var projectCatalog = []projectEntry{
	{id: "rust", languages: []string{"rust"}, buildSystems: []string{"cargo"}, anchors: []string{"Cargo.toml"},
		lockfiles: []string{"Cargo.lock"}, globs: []string{"*.rs", "src/**/*.rs", "crates/**/*.rs", "tests/**/*.rs"},
		buildCmd: "cargo build", testCmd: "cargo test", anchorScore: 0.5},
	{id: "go", languages: []string{"go"}, buildSystems: []string{"go"}, anchors: []string{"go.mod"},
		lockfiles: []string{"go.sum"}, globs: []string{"*.go", "cmd/**/*.go", "internal/**/*.go", "pkg/**/*.go"},
		buildCmd: "go build ./...", testCmd: "go test ./...", anchorScore: 0.5},
	{id: "python", languages: []string{"python"}, buildSystems: []string{"python"},
		anchors:   []string{"pyproject.toml", "setup.py", "requirements.txt"},
		lockfiles: []string{"uv.lock", "poetry.lock", "Pipfile.lock", "requirements.lock"},
		globs:     []string{"*.py", "src/**/*.py", "tests/**/*.py"}, testCmd: "pytest", anchorScore: 0.5},
	{id: "typescript", languages: []string{"typescript"}, buildSystems: []string{"npm"},
		anchors:   []string{"tsconfig.json", "package.json"},
		lockfiles: []string{"package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lockb"},
		globs:     []string{"*.ts", "*.tsx", "src/**/*.ts", "src/**/*.tsx", "tests/**/*.ts"},
		buildCmd:  "npm run build", testCmd: "npm test", anchorScore: 0.2},
	{id: "javascript", languages: []string{"javascript"}, buildSystems: []string{"npm"}, anchors: []string{"package.json"},
		lockfiles: []string{"package-lock.json", "pnpm-lock.yaml", "yarn.lock", "bun.lockb"},
		globs:     []string{"*.js", "*.jsx", "*.mjs", "*.cjs", "src/**/*.js", "src/**/*.jsx", "lib/**/*.js"},
		buildCmd:  "npm run build", testCmd: "npm test", anchorScore: 0.1},
	{id: "nextjs", languages: []string{"javascript", "typescript"}, frameworks: []string{"nextjs"}, buildSystems: []string{"npm"},
		anchors:  []string{"next.config.js", "next.config.mjs", "next.config.ts"},
		globs:    []string{"pages/**/*.tsx", "pages/**/*.jsx", "app/**/*.tsx", "app/**/*.jsx"},
		buildCmd: "npm run build", testCmd: "npm test", anchorScore: 0.7},
	{id: "ruby", languages: []string{"ruby"}, buildSystems: []string{"bundler"}, anchors: []string{"Gemfile"},
		lockfiles: []string{"Gemfile.lock"}, globs: []string{"*.rb", "app/**/*.rb", "lib/**/*.rb", "spec/**/*.rb"},
		testCmd: "bundle exec rspec", anchorScore: 0.5},
	{id: "swift", languages: []string{"swift"}, buildSystems: []string{"swiftpm"}, anchors: []string{"Package.swift"},
		lockfiles: []string{"Package.resolved"}, globs: []string{"Sources/**/*.swift", "Tests/**/*.swift", "*.swift"},
		buildCmd: "swift build", testCmd: "swift test", anchorScore: 0.5},
}

// vendorDirs are skipped by walks unless include_vendor is set.
var vendorDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, ".venv": true, "__pycache__": true,
	"build": true, "dist": true, "node_modules": true, "target": true, "venv": true}

type projectOptions struct {
	config, hidden, vendor, gitignore bool
	depth                             int // -1: unlimited
}

func parseProjectOptions(v Value) projectOptions {
	o := projectOptions{gitignore: true, depth: 3}
	if v.k != KindDict {
		return o
	}
	d := v.AsDict()
	if t, ok := d.Get("tiers"); ok && t.k == KindList {
		for _, x := range t.AsList().Items() {
			if Display(x) == "config" {
				o.config = true
			}
		}
	}
	if x, ok := d.Get("depth"); ok {
		switch x.k {
		case KindInt:
			o.depth = int(x.AsInt())
		case KindNil:
			o.depth = -1
		}
	}
	flag := func(k string, def bool) bool {
		if x, ok := d.Get(k); ok && x.k == KindBool {
			return x.AsBool()
		}
		return def
	}
	o.hidden, o.vendor, o.gitignore = flag("include_hidden", false), flag("include_vendor", false), flag("respect_gitignore", true)
	return o
}

// projectFS reads through the host.
type projectFS struct{ c *Call }

func (p projectFS) exists(name string) bool {
	var err error
	p.c.Block(func() { _, err = p.c.th.in.host.Stat(name) })
	return err == nil
}

func (p projectFS) isDir(name string) bool {
	var info fs.FileInfo
	var err error
	p.c.Block(func() { info, err = p.c.th.in.host.Stat(name) })
	return err == nil && info.IsDir()
}

func (p projectFS) list(dir string) []fs.DirEntry {
	var es []fs.DirEntry
	p.c.Block(func() { es, _ = p.c.th.in.host.ReadDir(dir) })
	sort.Slice(es, func(i, j int) bool { return es[i].Name() < es[j].Name() })
	return es
}

func (p projectFS) read(name string) (string, bool) {
	var b []byte
	var err error
	p.c.Block(func() { b, err = p.c.th.in.host.ReadFile(name) })
	return string(b), err == nil
}

// gitignore is the root .gitignore's patterns.
type gitignore struct{ rules []ignoreRule }

type ignoreRule struct {
	pattern          string
	negate, dirOnly  bool
	anchored, hasDir bool
}

func loadGitignore(p projectFS, root string, enabled bool) *gitignore {
	g := &gitignore{}
	if !enabled {
		return g
	}
	text, ok := p.read(filepath.Join(root, ".gitignore"))
	if !ok {
		return g
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r := ignoreRule{}
		if strings.HasPrefix(line, "!") {
			r.negate, line = true, line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly, line = true, strings.TrimSuffix(line, "/")
		}
		if strings.HasPrefix(line, "/") {
			r.anchored, line = true, line[1:]
		}
		r.hasDir = strings.Contains(line, "/")
		r.pattern = line
		g.rules = append(g.rules, r)
	}
	return g
}

// ignored reports whether a root-relative slash path (or a parent of it)
// is ignored.
func (g *gitignore) ignored(rel string, isDir bool) bool {
	parts := strings.Split(rel, "/")
	for i := range parts {
		sub := strings.Join(parts[:i+1], "/")
		subDir := isDir || i < len(parts)-1
		if g.match(sub, subDir) {
			return true
		}
	}
	return false
}

func (g *gitignore) match(rel string, isDir bool) bool {
	out := false
	for _, r := range g.rules {
		if r.dirOnly && !isDir {
			continue
		}
		var ok bool
		if r.anchored || r.hasDir {
			ok, _ = path.Match(r.pattern, rel)
		} else {
			ok, _ = path.Match(r.pattern, path.Base(rel))
		}
		if ok {
			out = !r.negate
		}
	}
	return out
}

// globMatch matches a slash path against a pattern where ** spans folders.
func globMatch(pattern, rel string) bool {
	if dir, ok := strings.CutSuffix(pattern, "/**"); ok && !strings.Contains(dir, "**") {
		// A trailing ** matches everything below the folder.
		for j := strings.LastIndexByte(rel, '/'); j > 0; j = strings.LastIndexByte(rel[:j], '/') {
			if globMatch(dir, rel[:j]) {
				return true
			}
		}
		return false
	}
	if !strings.Contains(pattern, "**") {
		ok, _ := path.Match(pattern, rel)
		return ok
	}
	prefix, rest, _ := strings.Cut(pattern, "**/")
	if !strings.HasPrefix(rel, prefix) {
		return false
	}
	tail := strings.TrimPrefix(rel, prefix)
	segs := strings.Split(tail, "/")
	for i := range segs {
		if globMatch(rest, strings.Join(segs[i:], "/")) {
			return true
		}
	}
	return false
}

// hasSource reports whether a file under dir (within depth+2 folders)
// matches one of the entry's source globs.
func (p projectFS) hasSource(root, dir string, e projectEntry, o projectOptions, depth int) bool {
	if len(e.globs) == 0 || (o.depth >= 0 && depth > o.depth+2) {
		return false
	}
	for _, ch := range p.list(dir) {
		name := ch.Name()
		if !o.hidden && strings.HasPrefix(name, ".") {
			continue
		}
		full := filepath.Join(dir, name)
		if ch.IsDir() {
			if !o.vendor && vendorDirs[name] {
				continue
			}
			if p.hasSource(root, full, e, o, depth+1) {
				return true
			}
			continue
		}
		rel, _ := filepath.Rel(root, full)
		rel = filepath.ToSlash(rel)
		for _, g := range e.globs {
			if globMatch(g, rel) {
				return true
			}
		}
	}
	return false
}

// evidence is one scanned folder.
type evidence struct {
	path                                string
	langs, frameworks                   map[string]float64
	buildSystems, lockfiles, anchors    map[string]bool
	vcs, packageName                    any
	commands                            []string
	scripts                             map[string]any
	fences, dockerCommands, makeTargets []string
}

func pushUnique(xs []string, s string) []string {
	if s == "" || containsString(xs, s) {
		return xs
	}
	return append(xs, s)
}

func (p projectFS) scanDir(dir string, o projectOptions) *evidence {
	ev := &evidence{path: dir, langs: map[string]float64{}, frameworks: map[string]float64{},
		buildSystems: map[string]bool{}, lockfiles: map[string]bool{}, anchors: map[string]bool{}, scripts: map[string]any{}}
	for cur := dir; ; cur = filepath.Dir(cur) {
		if p.exists(filepath.Join(cur, ".git")) {
			ev.vcs = "git"
			break
		}
		if p.exists(filepath.Join(cur, ".hg")) {
			ev.vcs = "hg"
			break
		}
		if filepath.Dir(cur) == cur {
			break
		}
	}
	for _, e := range projectCatalog {
		var anchors, locks []string
		for _, a := range e.anchors {
			if p.exists(filepath.Join(dir, a)) {
				anchors = append(anchors, a)
			}
		}
		for _, l := range e.lockfiles {
			if p.exists(filepath.Join(dir, l)) {
				locks = append(locks, l)
			}
		}
		if len(anchors) == 0 && len(locks) == 0 {
			continue
		}
		src := p.hasSource(dir, dir, e, o, 0)
		score := 0.0
		if len(anchors) > 0 {
			score = e.anchorScore
		}
		if src && score < 0.5 {
			score = 0.5
		}
		if len(locks) > 0 {
			if src {
				score = 1
			} else if score += 0.45; score > 1 {
				score = 1
			}
		}
		if score <= 0 {
			continue
		}
		for _, a := range anchors {
			if p.isDir(filepath.Join(dir, a)) {
				a += "/"
			}
			ev.anchors[a] = true
		}
		for _, l := range locks {
			ev.lockfiles[l] = true
		}
		for _, l := range e.languages {
			if score > ev.langs[l] {
				ev.langs[l] = score
			}
		}
		for _, f := range e.frameworks {
			if score > ev.frameworks[f] {
				ev.frameworks[f] = score
			}
		}
		if score >= 0.5 {
			for _, b := range e.buildSystems {
				ev.buildSystems[b] = true
			}
			ev.commands = pushUnique(ev.commands, e.buildCmd)
			ev.commands = pushUnique(ev.commands, e.testCmd)
		}
	}
	if o.config {
		p.configTier(dir, ev)
	}
	return ev
}

func (p projectFS) configTier(dir string, ev *evidence) {
	ev.packageName = p.packageName(dir)
	if text, ok := p.read(filepath.Join(dir, "package.json")); ok {
		var pkg struct {
			Scripts map[string]any `json:"scripts"`
		}
		if json.Unmarshal([]byte(text), &pkg) == nil {
			for k, v := range pkg.Scripts {
				if s, ok := v.(string); ok {
					ev.scripts[k] = s
				}
			}
			for _, k := range []string{"build", "test", "lint", "dev", "start"} {
				if _, ok := pkg.Scripts[k]; ok {
					if k == "test" {
						ev.commands = pushUnique(ev.commands, "npm test")
					} else {
						ev.commands = pushUnique(ev.commands, "npm run "+k)
					}
				}
			}
		}
	}
	if text, ok := p.read(filepath.Join(dir, "Dockerfile")); ok {
		for _, line := range strings.Split(text, "\n") {
			t := strings.TrimSpace(line)
			if len(t) > 4 && strings.EqualFold(t[:4], "RUN ") {
				ev.dockerCommands = append(ev.dockerCommands, strings.TrimSpace(t[4:]))
			}
		}
	}
	for _, name := range []string{"GNUmakefile", "Makefile", "makefile"} {
		text, ok := p.read(filepath.Join(dir, name))
		if !ok {
			continue
		}
		for _, line := range strings.Split(text, "\n") {
			if line == "" || line[0] == '\t' || line[0] == ' ' || line[0] == '#' || line[0] == '.' {
				continue
			}
			target, _, ok := strings.Cut(line, ":")
			if ok && !strings.ContainsAny(target, "=$% ") && !strings.HasPrefix(line[len(target)+1:], "=") {
				ev.makeTargets = append(ev.makeTargets, target)
			}
		}
		for _, k := range []string{"build", "test"} {
			if containsString(ev.makeTargets, k) {
				ev.commands = pushUnique(ev.commands, "make "+k)
			}
		}
		break
	}
	for _, name := range []string{"README.md", "README.MD", "README", "Readme.md"} {
		text, ok := p.read(filepath.Join(dir, name))
		if !ok {
			continue
		}
		var cur []string
		in := false
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				if in {
					ev.fences = append(ev.fences, strings.Join(cur, "\n"))
					cur = nil
				}
				in = !in
				continue
			}
			if in {
				cur = append(cur, line)
			}
		}
		break
	}
}

// packageName reads the package's name from pyproject.toml, package.json,
// go.mod (the module path's last element) or Cargo.toml.
func (p projectFS) packageName(dir string) any {
	if text, ok := p.read(filepath.Join(dir, "pyproject.toml")); ok {
		var doc struct {
			Project struct{ Name string }
			Tool    struct{ Poetry struct{ Name string } }
		}
		if toml.Unmarshal([]byte(text), &doc) == nil {
			if doc.Project.Name != "" {
				return doc.Project.Name
			}
			if doc.Tool.Poetry.Name != "" {
				return doc.Tool.Poetry.Name
			}
		}
	}
	if text, ok := p.read(filepath.Join(dir, "package.json")); ok {
		var pkg struct{ Name string }
		if json.Unmarshal([]byte(text), &pkg) == nil && pkg.Name != "" {
			return pkg.Name
		}
	}
	if text, ok := p.read(filepath.Join(dir, "go.mod")); ok {
		for _, line := range strings.Split(text, "\n") {
			if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
				m = strings.TrimSpace(m)
				return m[strings.LastIndex(m, "/")+1:]
			}
		}
	}
	if text, ok := p.read(filepath.Join(dir, "Cargo.toml")); ok {
		var doc struct{ Package struct{ Name string } }
		if toml.Unmarshal([]byte(text), &doc) == nil && doc.Package.Name != "" {
			return doc.Package.Name
		}
	}
	return nil
}

// ranked lists labels scoring at least 0.5, best first, then by name.
func ranked(scores map[string]float64) []string {
	var out []string
	for k, v := range scores {
		if v >= 0.5 {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if scores[out[i]] != scores[out[j]] {
			return scores[out[i]] > scores[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (ev *evidence) value() Value {
	conf := map[string]any{}
	for k, v := range ev.langs {
		conf[k] = v
	}
	for k, v := range ev.frameworks {
		conf[k] = v
	}
	nz := func(xs []string) []string {
		if xs == nil {
			return []string{}
		}
		return xs
	}
	return goValue(map[string]any{"path": ev.path, "languages": nz(ranked(ev.langs)), "frameworks": nz(ranked(ev.frameworks)),
		"build_systems": sortedSet(ev.buildSystems), "vcs": ev.vcs, "lockfiles": sortedSet(ev.lockfiles),
		"anchors": sortedSet(ev.anchors), "confidence": conf, "package_name": ev.packageName,
		"build_commands": nz(ev.commands), "declared_scripts": ev.scripts, "readme_code_fences": nz(ev.fences),
		"dockerfile_commands": nz(ev.dockerCommands), "makefile_targets": nz(ev.makeTargets)})
}

// rootCandidate: a folder under version control, with a harn.toml, or
// holding any catalog anchor or lockfile.
func (p projectFS) rootCandidate(dir string) bool {
	if p.exists(filepath.Join(dir, ".git")) || p.exists(filepath.Join(dir, catalog.File)) {
		return true
	}
	for _, e := range projectCatalog {
		for _, n := range append(append([]string{}, e.anchors...), e.lockfiles...) {
			if p.exists(filepath.Join(dir, n)) {
				return true
			}
		}
	}
	return false
}

// walk lists the folders under root a scan visits, sorted by path.
func (p projectFS) walk(root string, o projectOptions) []string {
	ig := loadGitignore(p, root, o.gitignore)
	var out []string
	var visit func(dir string, depth int)
	visit = func(dir string, depth int) {
		if o.depth >= 0 && depth >= o.depth {
			return
		}
		for _, ch := range p.list(dir) {
			if !ch.IsDir() {
				continue
			}
			name := ch.Name()
			full := filepath.Join(dir, name)
			rel, _ := filepath.Rel(root, full)
			rel = filepath.ToSlash(rel)
			if (!o.hidden && strings.HasPrefix(name, ".")) || ig.ignored(rel, true) || (!o.vendor && vendorDirs[name]) {
				continue
			}
			out = append(out, rel)
			visit(full, depth+1)
		}
	}
	visit(root, 0)
	return out
}

func projectDir(c *Call, fn string, v Value) (projectFS, string, error) {
	p := projectFS{c: c}
	dir := "."
	if v.k == KindString {
		dir = v.AsString()
	}
	abs := c.th.in.host.Abs(dir)
	var info fs.FileInfo
	var err error
	c.Block(func() { info, err = c.th.in.host.Stat(abs) })
	if err != nil {
		if strings.Contains(err.Error(), "permission denied") {
			return p, "", plainError(fn + ": " + err.Error())
		}
		return p, "", plainError(fn + ": path does not exist: " + abs)
	}
	if !info.IsDir() {
		return p, "", plainError(fn + ": not a directory: " + abs)
	}
	return p, abs, nil
}

func installProject(lib *Library) {
	scan := func(c *Call, args []Value) (Value, error) {
		p, root, err := projectDir(c, "project_scan", Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		return p.scanDir(root, parseProjectOptions(Arg(args, 1))).value(), nil
	}
	tree := func(c *Call, args []Value) (Value, error) {
		p, root, err := projectDir(c, "project_scan_tree", Arg(args, 0))
		if err != nil {
			return Nil, err
		}
		o := parseProjectOptions(Arg(args, 1))
		d := NewDict(4)
		d.Set(".", p.scanDir(root, o).value())
		for _, rel := range p.walk(root, o) {
			full := filepath.Join(root, filepath.FromSlash(rel))
			if p.rootCandidate(full) {
				d.Set(rel, p.scanDir(full, o).value())
			}
		}
		return DictValue(d), nil
	}
	catalog := func(c *Call, args []Value) (Value, error) {
		out := make([]any, len(projectCatalog))
		opt := func(s string) any {
			if s == "" {
				return nil
			}
			return s
		}
		nz := func(xs []string) []string {
			if xs == nil {
				return []string{}
			}
			return xs
		}
		for i, e := range projectCatalog {
			out[i] = map[string]any{"id": e.id, "languages": nz(e.languages), "frameworks": nz(e.frameworks),
				"build_systems": nz(e.buildSystems), "anchors": nz(e.anchors), "lockfiles": nz(e.lockfiles),
				"source_globs": nz(e.globs), "default_build_cmd": opt(e.buildCmd), "default_test_cmd": opt(e.testCmd)}
		}
		return goValue(out), nil
	}
	lib.Builtin("project_scan_native", scan)
	lib.Builtin("project_scan_tree_native", tree)
	lib.Builtin("project_catalog_native", catalog)
	fns := map[string]func(c *Call, args []Value) (Value, error){
		"project_scan":      scan,
		"project_scan_tree": tree,
		"project_catalog":   catalog,
		"project_scan_paths": func(c *Call, args []Value) (Value, error) {
			t, err := tree(c, args)
			if err != nil {
				return Nil, err
			}
			keys := t.AsDict().Keys()
			out := make([]Value, len(keys))
			for i, k := range keys {
				out[i] = Str(k)
			}
			return NewListValue(out), nil
		},
	}
	for name, fn := range projectMetadataFns() {
		fns[name] = fn
	}
	lib.StdModule("std/project", fns)
}

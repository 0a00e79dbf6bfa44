package harn

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// std/project's model-backed tiers. project_enrich(path, {prompt,
// schema, ...}) renders the prompt template over a folder's evidence and
// its most telling files (README, manifests, lockfiles, a few sources),
// asks the model for JSON matching the schema (through llm_call, so
// mocks, replay, budgets and schema retries apply), and caches the
// answer under <folder>/.harn/cache/enrichment keyed by the prompt, the
// schema, the files' digests and the evidence; an estimate over
// budget_tokens returns the evidence with budget_exceeded instead of
// calling, and an answer that fails the schema returns {base_evidence,
// validation_error}. project_deep_scan walks a tree and stores each
// folder's ambient/config/enriched evidence in a metadata namespace,
// refreshing only folders whose structure, content or options changed;
// project_deep_scan_status reports the last scan. The operator
// metadata of upstream's include_operator_meta (CI workflows, hooks,
// merge policy read through git and gh) is not collected here.

const (
	enrichMaxContextFiles = 12
	enrichMaxSourceFiles  = 8
	enrichMaxFileChars    = 4_000
	enrichMaxTotalChars   = 24_000
	enrichDefaultBudget   = 4_000
)

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// projectWalkTree is project_walk_tree_native(path, options): the folder
// and each folder under it a scan visits, as {path (relative to the
// folder), dir (the metadata key: relative to the program's folder when
// inside it, else absolute), structure_hash, content_hash}.
func projectWalkTree(c *Call, args []Value) (Value, error) {
	p, root, err := projectDir(c, "project_walk_tree_native", Arg(args, 0))
	if err != nil {
		return Nil, err
	}
	o := parseProjectOptions(Arg(args, 1))
	ig := loadGitignore(p, root, o.gitignore)
	metaRoot := c.th.in.host.Root()
	entry := func(rel, full string) Value {
		dir := full
		if r, err := filepath.Rel(metaRoot, full); err == nil && !strings.HasPrefix(r, "..") {
			dir = filepath.ToSlash(r)
		}
		structure, content := p.folderHashes(root, full, ig, o)
		return goValue(map[string]any{"path": rel, "dir": dir, "structure_hash": structure, "content_hash": content})
	}
	out := []Value{entry(".", root)}
	for _, rel := range p.walk(root, o) {
		out = append(out, entry(rel, filepath.Join(root, filepath.FromSlash(rel))))
	}
	return NewListValue(out), nil
}

// folderHashes hashes a folder's immediate entries a scan includes: the
// structure from names and kinds, the content from each file's name and
// bytes.
func (p projectFS) folderHashes(root, dir string, ig *gitignore, o projectOptions) (string, string) {
	var names []string
	content := sha256.New()
	for _, ch := range p.list(dir) {
		name := ch.Name()
		rel, _ := filepath.Rel(root, filepath.Join(dir, name))
		rel = filepath.ToSlash(rel)
		if !o.hidden && strings.HasPrefix(name, ".") || ig.ignored(rel, ch.IsDir()) || ch.IsDir() && !o.vendor && vendorDirs[name] {
			continue
		}
		kind := "file"
		if ch.IsDir() {
			kind = "dir"
		}
		names = append(names, name+":"+kind)
		if ch.IsDir() {
			continue
		}
		content.Write([]byte(name))
		content.Write([]byte{0})
		if b, ok := p.read(filepath.Join(dir, name)); ok {
			content.Write([]byte(b))
		}
		content.Write([]byte{0xff})
	}
	sort.Strings(names)
	structure := sha256.New()
	for _, n := range names {
		structure.Write([]byte(n))
		structure.Write([]byte{0xff})
	}
	return hex.EncodeToString(structure.Sum(nil)), hex.EncodeToString(content.Sum(nil))
}

type relevantFile struct {
	rel, content, digest string
	truncated            bool
}

// enrichFiles picks the files a prompt shows: operator context files,
// anchors and lockfiles, well-known manifests and READMEs, then up to
// eight sources of the folder's languages; at most twelve, each cut to
// 4,000 characters, 24,000 in all.
func (p projectFS) enrichFiles(root string, evidence *Dict) []relevantFile {
	var selected []string
	add := func(rel string) {
		if !slices.Contains(selected, rel) {
			selected = append(selected, rel)
		}
	}
	isFile := func(rel string) bool {
		return p.exists(filepath.Join(root, rel)) && !p.isDir(filepath.Join(root, rel))
	}
	var operator []string
	for _, rel := range []string{".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS", "CONTRIBUTING.md", ".pre-commit-config.yaml", "lefthook.yml"} {
		if isFile(rel) {
			operator = append(operator, rel)
		}
	}
	listed := func(dir string, exts []string, keep func(string) bool) {
		for _, de := range p.list(filepath.Join(root, dir)) {
			if de.IsDir() || !de.Type().IsRegular() {
				continue
			}
			if len(exts) > 0 && !slices.Contains(exts, strings.TrimPrefix(filepath.Ext(de.Name()), ".")) {
				continue
			}
			if keep == nil || keep(de.Name()) {
				operator = append(operator, dir+"/"+de.Name())
			}
		}
	}
	listed(".github/workflows", []string{"yml", "yaml"}, nil)
	listed(".githooks", nil, nil)
	listed(".husky", nil, func(n string) bool { return !strings.HasPrefix(n, "_") })
	sort.Strings(operator)
	for _, rel := range slices.Compact(operator) {
		add(rel)
	}
	for _, key := range []string{"anchors", "lockfiles"} {
		if v, ok := evidence.Get(key); ok && v.k == KindList {
			for _, it := range v.r.(*List).items {
				name := strings.TrimRight(Display(it), "/")
				if name != "" && isFile(name) {
					add(name)
				}
			}
		}
	}
	for _, name := range []string{"README.md", "README.MD", "README", "Readme.md", "Dockerfile", "GNUmakefile", "Makefile",
		"makefile", "package.json", "Cargo.toml", "pyproject.toml", "go.mod", "tsconfig.json", "next.config.js",
		"next.config.mjs", "next.config.ts", "setup.py", "requirements.txt", "Gemfile"} {
		if isFile(name) {
			add(name)
		}
	}
	var exts []string
	if v, ok := evidence.Get("languages"); ok && v.k == KindList {
		byLang := map[string][]string{"rust": {"rs"}, "go": {"go"}, "python": {"py"}, "typescript": {"ts", "tsx"},
			"javascript": {"js", "jsx", "mjs", "cjs"}, "ruby": {"rb"}}
		for _, l := range v.r.(*List).items {
			for _, e := range byLang[Display(l)] {
				if !slices.Contains(exts, e) {
					exts = append(exts, e)
				}
			}
		}
	}
	if len(exts) > 0 {
		var sources []string
		var visit func(dir string)
		visit = func(dir string) {
			for _, de := range p.list(dir) {
				if len(sources) >= enrichMaxSourceFiles {
					return
				}
				name := de.Name()
				full := filepath.Join(dir, name)
				if de.IsDir() {
					if !strings.HasPrefix(name, ".") && !vendorDirs[name] {
						visit(full)
					}
					continue
				}
				if slices.Contains(exts, strings.TrimPrefix(filepath.Ext(name), ".")) {
					rel, _ := filepath.Rel(root, full)
					sources = append(sources, filepath.ToSlash(rel))
				}
			}
		}
		visit(root)
		sort.Strings(sources)
		for _, s := range sources {
			add(s)
		}
	}
	var files []relevantFile
	total := 0
	for _, rel := range selected[:min(len(selected), enrichMaxContextFiles)] {
		text, ok := p.read(filepath.Join(root, rel))
		if !ok {
			continue
		}
		trimmed := text
		if utf8.RuneCountInString(text) > enrichMaxFileChars {
			trimmed = string([]rune(text)[:enrichMaxFileChars])
		}
		if total >= enrichMaxTotalChars {
			break
		}
		total += utf8.RuneCountInString(trimmed)
		files = append(files, relevantFile{rel: rel, content: trimmed, digest: sha256Hex(text), truncated: trimmed != text})
	}
	return files
}

func enrichProvenance(model Value, in, out int64, cached bool) Value {
	d := NewDict(3)
	d.Set("model", model)
	d.Set("tokens", goValue(map[string]any{"in": in, "out": out}))
	d.Set("cached", Bool(cached))
	return DictValue(d)
}

func projectEnrich(c *Call, args []Value) (Value, error) {
	const fn = "project.enrich"
	p, root, err := projectDir(c, fn, Arg(args, 0))
	if err != nil {
		return Nil, err
	}
	optsV := Arg(args, 1)
	if optsV.k != KindDict {
		return Nil, throwValue(Str(fn + ": options dict is required"))
	}
	opts := optsV.r.(*Dict)
	str := func(key, def string) string {
		if v, ok := opts.Get(key); ok && v.k == KindString {
			return v.r.(string)
		}
		return def
	}
	prompt := str("prompt", "")
	if prompt == "" {
		return Nil, throwValue(Str(fn + ": options.prompt must be a non-empty string"))
	}
	schema, ok := opts.Get("schema")
	if !ok {
		return Nil, throwValue(Str(fn + ": options.schema is required"))
	}
	budget := max(optInt64(opts, "budget_tokens", enrichDefaultBudget), 0)
	retries := max(optInt64(opts, "schema_retries", 1), 0)
	evidence, ok := opts.Get("base_evidence")
	if !ok || evidence.k == KindNil {
		evidence = p.scanDir(root, projectOptions{config: true, gitignore: true, depth: 3}).value()
	}
	if evidence.k != KindDict {
		return Nil, throwValue(Str(fn + ": base_evidence must be a dict"))
	}
	ev := evidence.r.(*Dict)
	files := p.enrichFiles(root, ev)
	bindings := NewDict(ev.Len() + 4)
	for _, k := range ev.Keys() {
		v, _ := ev.Get(k)
		bindings.Set(k, v)
	}
	fileVals := make([]Value, len(files))
	var digests []string
	for i, f := range files {
		fileVals[i] = goValue(map[string]any{"path": f.rel, "content": f.content, "truncated": f.truncated})
		digests = append(digests, f.rel+":"+f.digest)
	}
	bindings.Set("path", Str(root))
	bindings.Set("base_evidence", evidence)
	bindings.Set("evidence", evidence)
	bindings.Set("files", NewListValue(fileVals))
	rendered, err := renderTemplate(c, "project_enrich", root, prompt, DictValue(bindings))
	if err != nil {
		return Nil, err
	}
	text := Display(rendered)
	schemaJSON := jsonText(schema)
	identity := jsonText(goValue(map[string]any{"cache_key": str("cache_key", "default"), "path": root,
		"schema_hash": sha256Hex(schemaJSON), "prompt_hash": sha256Hex(text),
		"content_hash": sha256Hex(strings.Join(digests, "|")), "evidence_hash": sha256Hex(jsonText(evidence))}))
	cacheRoot := filepath.Join(root, ".harn", "cache", "enrichment")
	if d := str("cache_dir", ""); d != "" {
		cacheRoot = c.th.in.host.Abs(d)
	}
	cachePath := filepath.Join(cacheRoot, sha256Hex(identity)+".json")
	if raw, ok := p.read(cachePath); ok {
		rec, err := ParseJSON(raw)
		if err != nil || rec.k != KindDict {
			return Nil, throwValue(Str(fn + ": failed to parse cache " + cachePath))
		}
		res, _ := rec.r.(*Dict).Get("result")
		if res.k == KindDict {
			d := res.r.(*Dict).clone()
			prov := NewDict(1)
			if pv, ok := d.Get("_provenance"); ok && pv.k == KindDict {
				prov = pv.r.(*Dict).clone()
			}
			prov.Set("cached", Bool(true))
			d.Set("_provenance", DictValue(prov))
			res = DictValue(d)
		}
		return res, nil
	}
	estimate := (int64(utf8.RuneCountInString(text))+3)/4 + (int64(utf8.RuneCountInString(schemaJSON))+3)/4
	if estimate > budget {
		d := ev.clone()
		d.Set("budget_exceeded", Bool(true))
		d.Set("_provenance", enrichProvenance(Nil, estimate, 0, false))
		return DictValue(d), nil
	}
	llmOpts := NewDict(8)
	llmOpts.Set("provider", Str(str("provider", "auto")))
	llmOpts.Set("model", Str(str("model", "auto")))
	if t, ok := opts.Get("temperature"); ok && (t.k == KindFloat || t.k == KindInt) {
		f, _ := t.Number()
		llmOpts.Set("temperature", Float(f))
	}
	llmOpts.Set("output_schema", schema)
	llmOpts.Set("output_validation", Str("error"))
	llmOpts.Set("schema_retries", Int(retries))
	llmOpts.Set("response_format", Str("json"))
	// The prompt is the one user message (llm_call's first argument).
	resp, err := llmCallWithRetries(c, []Value{Str(text), Nil, DictValue(llmOpts)})
	envelope := func(msg string, model Value, in, out int64) Value {
		d := NewDict(3)
		d.Set("base_evidence", evidence)
		d.Set("validation_error", Str(msg))
		d.Set("_provenance", enrichProvenance(model, in, out, false))
		return DictValue(d)
	}
	if err != nil {
		if e, ok := err.(*Error); ok && e.Category == "schema_validation" {
			msg := Display(e.Value)
			if e.Value.k == KindDict {
				if m, ok := e.Value.r.(*Dict).Get("message"); ok {
					msg = Display(m)
				}
			}
			return envelope(msg, Nil, estimate, 0), nil
		}
		return Nil, err
	}
	rd, ok := resp.r.(*Dict)
	if !ok {
		return Nil, throwValue(Str(fn + ": expected llm response dict"))
	}
	model, _ := rd.Get("model")
	in, out := estimate, int64(0)
	if v, ok := rd.Get("input_tokens"); ok && v.k == KindInt {
		in = v.AsInt()
	}
	if v, ok := rd.Get("output_tokens"); ok && v.k == KindInt {
		out = v.AsInt()
	}
	data, ok := rd.Get("data")
	if !ok || data.k == KindNil {
		return envelope("LLM response did not contain structured data", model, in, out), nil
	}
	var result *Dict
	if data.k == KindDict {
		result = data.r.(*Dict).clone()
	} else {
		result = NewDict(2)
		result.Set("data", data)
	}
	result.Set("_provenance", enrichProvenance(model, in, out, false))
	if ci, ok := ev.Get("ci"); ok {
		result.Set("ci", ci)
	}
	rec := NewDict(1)
	rec.Set("result", DictValue(result))
	if err := writeStateJSON(c, cachePath, toGo(DictValue(rec))); err != nil {
		return Nil, ioError(fn+": failed to write cache "+cachePath, err)
	}
	return DictValue(result), nil
}

func installProjectEnrich(lib *Library) {
	lib.Builtin("project_walk_tree_native", projectWalkTree)
	lib.Builtin("project_enrich_native", projectEnrich)
}

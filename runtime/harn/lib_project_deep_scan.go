package harn

import (
	"slices"
)

// project_deep_scan(path, {namespace, tiers, incremental, depth,
// include_hidden, include_vendor, respect_gitignore,
// max_staleness_seconds, enrichment: {prompt, system, schema, provider,
// model, temperature, budget_tokens_per_dir, include_operator_meta}}):
// the evidence of each folder under path, keyed by its path relative to
// path. Each folder's record (its hashes, the options' signature, the
// refresh time and the evidence) lives in the metadata namespace under
// the folder's key, and a later scan reuses it unless the folder's
// structure or content, the options, or a wanted tier changed, or it is
// older than max_staleness_seconds; the scan's status is stored under
// the scanned folder's key and returned by project_deep_scan_status.

func tierList(v Value) []string {
	var out []string
	if v.k == KindList {
		for _, t := range v.r.(*List).items {
			out = append(out, Display(t))
		}
	}
	return out
}

func field(v Value, keys ...string) Value {
	for _, k := range keys {
		if v.k != KindDict {
			return Nil
		}
		v, _ = v.r.(*Dict).Get(k)
	}
	return v
}

func orNil(v Value, def Value) Value {
	if v.k == KindNil {
		return def
	}
	return v
}

func projectDeepScan(c *Call, args []Value) (Value, error) {
	path := Arg(args, 0)
	if path.k == KindNil {
		path = Str(".")
	}
	opts := optsArg(args, 1)
	optsV := DictValue(opts)
	namespace := Display(orNil(field(optsV, "namespace"), Str("project-enrichment")))
	var tiers []string
	switch {
	case field(optsV, "tiers").k != KindNil:
		tiers = tierList(field(optsV, "tiers"))
	case field(optsV, "enrichment").k != KindNil:
		tiers = []string{"ambient", "config", "enriched"}
	default:
		tiers = []string{"ambient", "config"}
	}
	tierVals := make([]Value, len(tiers))
	for i, t := range tiers {
		tierVals[i] = Str(t)
	}
	flag := func(key string, def bool) Value {
		if v := field(optsV, key); v.k != KindNil {
			return v
		}
		return Bool(def)
	}
	walkOpts := NewDict(4)
	walkOpts.Set("depth", field(optsV, "depth"))
	walkOpts.Set("include_hidden", flag("include_hidden", false))
	walkOpts.Set("include_vendor", flag("include_vendor", false))
	walkOpts.Set("respect_gitignore", flag("respect_gitignore", true))
	walk, err := projectWalkTree(c, []Value{path, DictValue(walkOpts)})
	if err != nil {
		return Nil, err
	}
	entries := walk.r.(*List).items
	scope := Str(".")
	if len(entries) > 0 {
		scope = field(entries[0], "dir")
	}
	enrichment := orNil(field(optsV, "enrichment"), DictValue(NewDict(0)))
	signature := sha256Hex(jsonText(goValue(map[string]any{
		"version": 2, "tiers": NewListValue(tierVals), "walk": DictValue(walkOpts),
		"prompt": orNil(field(enrichment, "prompt"), Str("")), "system": orNil(field(enrichment, "system"), Str("")),
		"schema": field(enrichment, "schema"), "provider": orNil(field(enrichment, "provider"), Str("")),
		"model": orNil(field(enrichment, "model"), Str("")), "temperature": field(enrichment, "temperature"),
		"budget_tokens": field(enrichment, "budget_tokens_per_dir")})))
	incremental := flag("incremental", true).Truthy()
	now := c.th.in.host.Now().Unix()
	maxStale := field(optsV, "max_staleness_seconds")

	cache := map[string]Value{}
	{
		m := metadataOf(c)
		for _, d := range m.dirs() {
			if f, ok := m.entries[d][namespace]; ok {
				cache[normalizeMetaDir(d)] = f["_deep_scan"]
			}
		}
		m.mu.Unlock()
	}
	has := func(t string) bool { return slices.Contains(tiers, t) }
	selectTiers := func(ev Value) Value {
		out := NewDict(3)
		for _, t := range []string{"ambient", "config", "enriched"} {
			if v := field(ev, t); has(t) && v.k != KindNil {
				out.Set(t, v)
			}
		}
		return DictValue(out)
	}
	tree := NewDict(len(entries))
	hits, enriched := int64(0), int64(0)
	var last Value = Nil
	later := func(t Value) {
		if t.k == KindNil {
			return
		}
		if last.k == KindNil {
			last = t
			return
		}
		if a, _ := t.Number(); true {
			if b, _ := last.Number(); a > b {
				last = t
			}
		}
	}
	for _, e := range entries {
		dir := Display(field(e, "dir"))
		cached := cache[normalizeMetaDir(dir)]
		if !deepScanStale(cached, e, signature, has, maxStale, incremental, now) {
			sel := selectTiers(orNil(field(cached, "evidence"), DictValue(NewDict(0))))
			tree.Set(Display(field(e, "path")), sel)
			hits++
			if field(sel, "enriched").k != KindNil {
				enriched++
			}
			later(field(cached, "refreshed_at"))
			continue
		}
		record, err := deepScanRefresh(c, namespace, e, has, enrichment, signature, now)
		if err != nil {
			return Nil, err
		}
		if err := metadataSetOne(c, dir, namespace, "_deep_scan", record); err != nil {
			return Nil, err
		}
		sel := selectTiers(field(record, "evidence"))
		tree.Set(Display(field(e, "path")), sel)
		if field(sel, "enriched").k != KindNil {
			enriched++
		}
		later(field(record, "refreshed_at"))
	}
	status := goValue(map[string]any{"version": 1, "scope": scope, "total_dirs": len(entries),
		"enriched_dirs": enriched, "stale_dirs": 0, "cache_hits": hits, "last_refresh": last,
		"options": map[string]any{"tiers": NewListValue(tierVals), "walk": DictValue(walkOpts),
			"max_staleness_seconds": maxStale, "signature": signature}})
	if err := metadataSetOne(c, Display(scope), namespace, "_deep_scan_status", status); err != nil {
		return Nil, err
	}
	if _, err := callBuiltin(c, "metadata_save"); err != nil {
		return Nil, err
	}
	return DictValue(tree), nil
}

func metadataSetOne(c *Call, dir, namespace, key string, v Value) error {
	d := NewDict(1)
	d.Set(key, v)
	_, err := callBuiltin(c, "metadata_set", Str(dir), Str(namespace), DictValue(d))
	return err
}

// deepScanStale says whether a folder's cached record must be rebuilt.
func deepScanStale(cached, e Value, signature string, has func(string) bool, maxStale Value, incremental bool, now int64) bool {
	if !incremental || cached.k != KindDict {
		return true
	}
	if v := field(cached, "version"); v.k != KindInt || v.AsInt() != 1 {
		return true
	}
	if Display(field(cached, "config_signature")) != signature ||
		!Equal(field(cached, "structure_hash"), field(e, "structure_hash")) ||
		!Equal(field(cached, "content_hash"), field(e, "content_hash")) {
		return true
	}
	if maxStale.k != KindNil {
		at := field(cached, "refreshed_at")
		if at.k == KindNil {
			return true
		}
		a, _ := at.Number()
		limit, _ := maxStale.Number()
		if float64(now)-a > limit {
			return true
		}
	}
	for _, t := range []string{"ambient", "config", "enriched"} {
		if has(t) && field(cached, "evidence", t).k == KindNil {
			return true
		}
	}
	return false
}

// deepScanRefresh scans one folder for the wanted tiers.
func deepScanRefresh(c *Call, namespace string, e Value, has func(string) bool, enrichment Value, signature string, now int64) (Value, error) {
	dir := Display(field(e, "dir"))
	evidence := NewDict(3)
	if has("ambient") || has("config") {
		p, root, err := projectDir(c, "project_deep_scan", Str(dir))
		if err != nil {
			return Nil, err
		}
		scan := p.scanDir(root, projectOptions{config: has("config"), gitignore: true, depth: 3}).value()
		list := func(k string) Value { return orNil(field(scan, k), NewListValue(nil)) }
		if has("ambient") {
			evidence.Set("ambient", goValue(map[string]any{"path": field(scan, "path"), "languages": list("languages"),
				"frameworks": list("frameworks"), "build_systems": list("build_systems"), "vcs": field(scan, "vcs"),
				"lockfiles": list("lockfiles"), "anchors": list("anchors"),
				"confidence": orNil(field(scan, "confidence"), DictValue(NewDict(0)))}))
		}
		if has("config") {
			evidence.Set("config", goValue(map[string]any{"package_name": field(scan, "package_name"),
				"build_commands": list("build_commands"), "declared_scripts": orNil(field(scan, "declared_scripts"), DictValue(NewDict(0))),
				"readme_code_fences": list("readme_code_fences"), "dockerfile_commands": list("dockerfile_commands"),
				"makefile_targets": list("makefile_targets")}))
		}
	}
	if has("enriched") {
		instruction := Display(orNil(field(enrichment, "system"), orNil(field(enrichment, "prompt"),
			Str("Return a compact JSON summary of this directory. No markdown."))))
		prompt := instruction + "\n\nDirectory key: " + dir + "\nDisplay path: " + Display(field(e, "path")) +
			"\nDeterministic evidence:\n" + jsonText(DictValue(evidence)) +
			"\nRelevant files:\n{{ for file in files }}FILE {{file.path}}\n{{file.content}}\n{{ end }}"
		eo := goValue(map[string]any{"base_evidence": DictValue(evidence.clone()), "prompt": prompt,
			"schema": field(enrichment, "schema"), "provider": field(enrichment, "provider"),
			"model": field(enrichment, "model"), "temperature": field(enrichment, "temperature"),
			"budget_tokens":         field(enrichment, "budget_tokens_per_dir"),
			"cache_key":             namespace + "/" + Display(field(e, "path")),
			"include_operator_meta": orNil(field(enrichment, "include_operator_meta"), Bool(false))})
		// nil options fall back to project_enrich's defaults.
		od := eo.r.(*Dict)
		for _, k := range od.Keys() {
			if v, _ := od.Get(k); v.k == KindNil && k != "schema" {
				od.Delete(k)
			}
		}
		res, err := projectEnrich(c, []Value{Str(dir), eo})
		if err != nil {
			return Nil, err
		}
		evidence.Set("enriched", res)
	}
	return goValue(map[string]any{"version": 1, "dir": dir, "path": field(e, "path"),
		"structure_hash": field(e, "structure_hash"), "content_hash": field(e, "content_hash"),
		"config_signature": signature, "refreshed_at": now, "evidence": DictValue(evidence)}), nil
}

func projectDeepScanStatus(c *Call, args []Value) (Value, error) {
	namespace := Display(Arg(args, 0))
	path := Arg(args, 1)
	if path.k == KindNil {
		path = Str(".")
	}
	scope := Str(".")
	walk, err := projectWalkTree(c, []Value{path, goValue(map[string]any{"depth": 0})})
	if err != nil {
		return Nil, err
	}
	if items := walk.r.(*List).items; len(items) > 0 {
		scope = field(items[0], "dir")
	}
	m := metadataOf(c)
	defer m.mu.Unlock()
	total, enriched := 0, 0
	for _, d := range m.dirs() {
		f, ok := m.entries[d][namespace]
		if !ok {
			continue
		}
		if normalizeMetaDir(d) == normalizeMetaDir(Display(scope)) {
			if st, ok := f["_deep_scan_status"]; ok && st.k != KindNil {
				return st, nil
			}
		}
	}
	for _, d := range m.dirs() {
		rec := m.entries[d][namespace]["_deep_scan"]
		if rec.k == KindNil {
			continue
		}
		total++
		if field(rec, "evidence", "enriched").k != KindNil {
			enriched++
		}
	}
	return goValue(map[string]any{"version": 1, "scope": scope, "total_dirs": total, "enriched_dirs": enriched,
		"stale_dirs": 0, "cache_hits": 0, "last_refresh": nil}), nil
}

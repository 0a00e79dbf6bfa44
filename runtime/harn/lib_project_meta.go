package harn

// std/project over the metadata store: a namespace resolved for a folder
// or held locally, the inventory (entries and status) of a namespace,
// and whether any folder needs a refresh (stale, or missing a hash).

func projectMetadataFns() map[string]func(c *Call, args []Value) (Value, error) {
	return map[string]func(c *Call, args []Value) (Value, error){
		"project_fingerprint":      projectFingerprint,
		"project_enrich":           projectEnrich,
		"project_deep_scan":        projectDeepScan,
		"project_deep_scan_status": projectDeepScanStatus,
		"metadata_namespace": func(c *Call, args []Value) (Value, error) {
			v, err := callBuiltin(c, "metadata_resolve", Arg(args, 0), Arg(args, 1))
			if err != nil || v.k != KindNil {
				return v, err
			}
			return DictValue(NewDict(0)), nil
		},
		"metadata_local_namespace": func(c *Call, args []Value) (Value, error) {
			m := metadataOf(c)
			defer m.mu.Unlock()
			dir := Display(Arg(args, 0))
			if dir == "" {
				dir = "."
			}
			ns := Display(Arg(args, 1))
			for _, d := range m.dirs() {
				if normalizeMetaDir(d) != dir {
					continue
				}
				if f, ok := m.entries[d][ns]; ok {
					return fieldsValue(f), nil
				}
				break
			}
			return DictValue(NewDict(0)), nil
		},
		"project_inventory": func(c *Call, args []Value) (Value, error) {
			entries, err := callBuiltin(c, "metadata_entries", Arg(args, 0))
			if err != nil {
				return Nil, err
			}
			status, err := callBuiltin(c, "metadata_status", Arg(args, 0))
			if err != nil {
				return Nil, err
			}
			d := NewDict(2)
			d.Set("entries", entries)
			d.Set("status", status)
			return DictValue(d), nil
		},
		"project_stale": func(c *Call, args []Value) (Value, error) {
			m := metadataOf(c)
			defer m.mu.Unlock()
			return m.stale(c), nil
		},
		"project_stale_dirs": func(c *Call, args []Value) (Value, error) {
			m := metadataOf(c)
			defer m.mu.Unlock()
			s := m.stale(c).r.(*Dict)
			t1, _ := s.Get("tier1")
			t2, _ := s.Get("tier2")
			return NewListValue(append(append([]Value(nil), t1.r.(*List).items...), t2.r.(*List).items...)), nil
		},
		"project_requires_refresh": func(c *Call, args []Value) (Value, error) {
			st, err := callBuiltin(c, "metadata_status", Arg(args, 0))
			if err != nil {
				return Nil, err
			}
			d := st.r.(*Dict)
			stale, _ := d.Get("stale")
			anyStale, _ := stale.r.(*Dict).Get("any_stale")
			ms, _ := d.Get("missing_structure_hash")
			mc, _ := d.Get("missing_content_hash")
			return Bool(anyStale.Truthy() || len(ms.r.(*List).items) > 0 || len(mc.r.(*List).items) > 0), nil
		},
	}
}

package ai

import (
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Fixture indexes and package contracts: llm.fixture_index(spec, opts)
// and llm.validate_fixture_index(index, opts) (camelCase aliases);
// llm.provider_free_package_contract(spec, opts) and
// llm.validate_package_contract(contract, opts). They normalize and gate
// metadata only: no fixture file is opened, no path resolved, no schema
// read, no directory scanned, no entrypoint name or package layout
// required. References must be relative metadata: not absolute, not
// climbing with "..", not URLs.

// defaultIdentityFields are the replay matcher's identity fields.
var defaultIdentityFields = []string{"operation", "capability", "replay_key", "request_hash"}

// copyAll deep-copies every field of src into a new table.
func copyAll(src leia.Value) *leia.Table {
	if c := deepClone(src).Table(); c != nil && c != src.Table() {
		return c
	}
	return leia.NewTable(0, 8)
}

// boolOf is src[key], else opts[key], else fallback.
func boolOf(src, opts leia.Value, key string, fallback bool) bool {
	return optBool(src, key, optBool(opts, key, fallback))
}

// entryValues are a list's items, or a map's values in key order.
func entryValues(v leia.Value) []leia.Value {
	if items := Items(v); len(items) > 0 {
		return items
	}
	var out []leia.Value
	for _, k := range Keys(v) {
		out = append(out, Field(v, k))
	}
	return out
}

func identityFields(opts leia.Value) []string {
	if f := stringItems(Field(opts, "identity_fields")); len(f) > 0 && Field(opts, "identity_fields").Table() != nil {
		return f
	}
	return append([]string(nil), defaultIdentityFields...)
}

// FixtureIndex is llm.fixture_index.
func FixtureIndex(src, opts leia.Value) leia.Value {
	out := copyAll(src)
	out.SetStr("__llm_fixture_index", leia.True)
	out.SetStr("kind", leia.String("fixture_index"))
	out.SetStr("schema_version", leia.Int(optInt(src, "schema_version", optInt(opts, "schema_version", 1))))
	out.SetStr("version", leia.String(optString(src, "version", optString(opts, "version", "fixture_index.v1"))))
	id := optString(src, "fixture_id", optString(src, "id", optString(opts, "fixture_id", "fixture-index")))
	out.SetStr("fixture_id", leia.String(id))
	if out.GetStr("id").IsNil() {
		out.SetStr("id", leia.String(id))
	}
	out.SetStr("provider_free", leia.Bool(boolOf(src, opts, "provider_free", true)))
	for _, f := range []string{"domain_specific", "live_network", "live_model", "live_model_calls", "real_dependency_imports",
		"credentials_required", "provider_credentials_required", "secret_values_present"} {
		out.SetStr(f, leia.Bool(boolOf(src, opts, f, false)))
	}
	out.SetStr("mode", leia.String(optString(src, "mode", optString(opts, "mode", replayModeFixture))))
	out.SetStr("strategy", leia.String(optString(src, "strategy", optString(opts, "strategy", "strict_ordered"))))
	ov := leia.TableValue(out)
	fixtures := newList()
	for _, it := range entryValues(Field(src, "fixtures")) {
		if it.Table() == nil {
			continue
		}
		e := copyAll(it)
		ev := leia.TableValue(e)
		fid := optString(it, "id", optString(it, "fixture_key", optString(it, "key", fmt.Sprintf("fixture:%d", fixtures.Len()+1))))
		e.SetStr("id", leia.String(fid))
		e.SetStr("fixture_key", leia.String(optString(it, "fixture_key", fid)))
		if e.GetStr("schema").IsNil() {
			for _, k := range []string{"schema_path", "schemas"} {
				if v := Field(it, k); !v.IsNil() {
					e.SetStr("schema", deepClone(v))
					break
				}
			}
		}
		e.SetStr("provider_free", leia.Bool(boolOf(it, ov, "provider_free", true)))
		for _, f := range []string{"live_network", "live_model", "real_dependency_imports", "credentials_required", "provider_credentials_required"} {
			e.SetStr(f, leia.Bool(boolOf(it, ov, f, false)))
		}
		meta := copyAll(Field(it, "metadata"))
		mv := leia.TableValue(meta)
		meta.SetStr("replay_ready", leia.Bool(optBool(mv, "replay_ready", optBool(opts, "replay_ready", true))))
		meta.SetStr("provider_free", leia.Bool(boolOf(mv, ev, "provider_free", true)))
		for _, f := range []string{"live_network", "real_dependency_imports", "credentials_required"} {
			meta.SetStr(f, leia.Bool(boolOf(mv, ev, f, false)))
		}
		meta.SetStr("live_model_calls", leia.Bool(boolOf(mv, ov, "live_model_calls", false)))
		e.SetStr("metadata", mv)
		appendTo(fixtures, ev)
	}
	out.SetStr("fixtures", leia.TableValue(fixtures))
	out.SetStr("fixture_count", leia.Int(int64(fixtures.Len())))
	matching := copyAll(Field(src, "matching"))
	mv := leia.TableValue(matching)
	matching.SetStr("scan_ahead", leia.Bool(optBool(mv, "scan_ahead", false)))
	matching.SetStr("consume_on_match", leia.Bool(boolOf(mv, opts, "consume_on_match", true)))
	matching.SetStr("consume_on_mismatch", leia.Bool(boolOf(mv, opts, "consume_on_mismatch", false)))
	if matching.GetStr("identity_fields").IsNil() {
		matching.SetStr("identity_fields", StringList(identityFields(opts)))
	}
	for _, d := range [][2]string{{"mismatch_finding_kind", "generic.ai.replay.mismatch"},
		{"unconsumed_finding_kind", "generic.ai.replay.unconsumed_record"}, {"exhausted_finding_kind", "generic.ai.replay.exhausted"}} {
		matching.SetStr(d[0], leia.String(optString(mv, d[0], d[1])))
	}
	out.SetStr("matching", mv)
	out.SetStr("deterministic_summary_order", StringList([]string{"fixture_id", "strategy", "fixture_count", "provider_free",
		"live_network", "real_dependency_imports"}))
	sum := leia.NewTable(0, 10)
	copyScalars(sum, ov, []string{"fixture_id", "strategy", "fixture_count", "provider_free", "domain_specific", "live_network",
		"live_model", "real_dependency_imports", "credentials_required"})
	out.SetStr("summary", leia.TableValue(sum))
	return ov
}

// refFindings collects {kind, message, fixture?} findings.
type refFindings struct{ t *leia.Table }

func (f refFindings) add(kind, msg, fixture string) {
	e := leia.NewTable(0, 3)
	e.SetStr("kind", leia.String(kind))
	e.SetStr("message", leia.String(msg))
	if fixture != "" {
		e.SetStr("fixture", leia.String(fixture))
	}
	appendTo(f.t, leia.TableValue(e))
}

// checkReference reports a reference that is not relative metadata.
func (f refFindings) checkReference(field, ref, fixture string) {
	if ref == "" {
		f.add(field, "fixture reference must be non-empty", fixture)
		return
	}
	if strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, `\`) || strings.Contains(ref, "../") ||
		strings.Contains(ref, `..\`) || strings.Contains(ref, "://") {
		f.add(field, "fixture reference must be relative metadata, not an absolute path, parent traversal, or URL", fixture)
	}
}

func (f refFindings) checkReferenceValue(field string, v leia.Value, fixture string) {
	switch {
	case v.Kind() == leia.KindString:
		f.checkReference(field, v.AsString(), fixture)
	case v.Table() != nil:
		for _, it := range Items(v) {
			if it.Kind() != leia.KindString {
				f.add(field, "fixture reference list entries must be strings", fixture)
				continue
			}
			f.checkReference(field, it.AsString(), fixture)
		}
	default:
		f.add(field, "fixture reference must be a string or string list", fixture)
	}
}

// gateTable finishes a validation table with status, result_status,
// finding_count and findings.
func gateTable(out *leia.Table, findings *leia.Table) {
	ok := findings.Len() == 0
	out.SetStr("ok", leia.Bool(ok))
	if ok {
		out.SetStr("status", leia.String("ok"))
		out.SetStr("result_status", leia.String("ok"))
	} else {
		out.SetStr("status", leia.String("failed"))
		out.SetStr("result_status", leia.String("blocked"))
	}
	out.SetStr("finding_count", leia.Int(int64(findings.Len())))
	out.SetStr("findings", leia.TableValue(findings))
}

// ValidateFixtureIndex is llm.validate_fixture_index.
func ValidateFixtureIndex(index, opts leia.Value) leia.Value {
	f := refFindings{newList()}
	if optBool(opts, "require_provider_free", true) && !optBool(index, "provider_free", false) {
		f.add("provider_free", "fixture index must be provider-free", "")
	}
	offline := optBool(opts, "require_offline", true)
	if offline {
		if optBool(index, "live_network", false) {
			f.add("live_network", "fixture index must not require live network", "")
		}
		if optBool(index, "real_dependency_imports", false) {
			f.add("real_dependency_imports", "fixture index must not require real dependency imports", "")
		}
		if optBool(index, "credentials_required", false) || optBool(index, "provider_credentials_required", false) {
			f.add("credentials_required", "fixture index must not require credentials", "")
		}
	}
	fixtures := entryValues(Field(index, "fixtures"))
	if len(fixtures) == 0 || Field(index, "fixtures").Table() == nil {
		if optBool(opts, "require_fixtures", false) {
			f.add("fixtures", "fixture index must contain fixtures", "")
		}
		fixtures = nil
	}
	for i, fx := range fixtures {
		name := fmt.Sprintf("fixture:%d", i+1)
		if fx.Table() == nil {
			f.add("fixture", "fixture must be a table", name)
			continue
		}
		if id := optString(fx, "fixture_key", optString(fx, "key", optString(fx, "id", ""))); id != "" {
			name = id
		} else {
			f.add("fixture_key", "fixture must include id or fixture_key", name)
		}
		if p := Field(fx, "path"); !p.IsNil() {
			f.checkReferenceValue("path", p, name)
		} else if optBool(opts, "require_path", false) {
			f.add("path", "fixture must include a path", name)
		}
		for _, k := range []string{"schema", "schema_path", "schemas"} {
			if v := Field(fx, k); !v.IsNil() {
				f.checkReferenceValue(k, v, name)
			}
		}
		if optBool(opts, "require_provider_free", true) && !optBool(fx, "provider_free", false) {
			f.add("provider_free", "fixture must be provider-free", name)
		}
		if offline {
			if optBool(fx, "live_network", false) {
				f.add("live_network", "fixture must not require live network", name)
			}
			if optBool(fx, "real_dependency_imports", false) {
				f.add("real_dependency_imports", "fixture must not require real dependency imports", name)
			}
		}
		meta := Field(fx, "metadata")
		if optBool(opts, "require_replay_ready", false) && (meta.Table() == nil || !optBool(meta, "replay_ready", false)) {
			f.add("replay_ready", "fixture metadata must be replay-ready", name)
		}
		if meta.Table() != nil {
			for _, c := range []struct {
				field string
				want  bool
			}{{"provider_free", true}, {"live_network", false}, {"real_dependency_imports", false}, {"replay_ready", true}} {
				v := Field(meta, c.field)
				if !v.IsNil() && (v.Kind() != leia.KindBool || v.AsBool() != c.want) {
					f.add(c.field, fmt.Sprintf("fixture metadata %s must be %v", c.field, c.want), name)
				}
			}
		}
	}
	out := leia.NewTable(0, 14)
	out.SetStr("kind", leia.String("fixture_index_validation"))
	out.SetStr("schema_version", leia.Int(1))
	out.SetStr("version", leia.String("fixture_index_validation.v1"))
	gateTable(out, f.t)
	out.SetStr("fixture_id", Field(index, "fixture_id"))
	out.SetStr("fixture_count", leia.Int(int64(len(fixtures))))
	out.SetStr("provider_free", leia.Bool(optBool(index, "provider_free", true)))
	out.SetStr("live_network", leia.Bool(optBool(index, "live_network", false)))
	out.SetStr("real_dependency_imports", leia.Bool(optBool(index, "real_dependency_imports", false)))
	return leia.TableValue(out)
}

// packageFlags are the contract's paired default flags.
var packageFlags = [][2]string{{"live_network", "live_network_default"}, {"real_dependency_imports", "real_dependency_import_default"},
	{"live_model", "live_model_default"}, {"credentials_required", "provider_credentials_required"}}

func pairBool(src, opts leia.Value, primary, secondary string) bool {
	for _, t := range []leia.Value{src, opts} {
		for _, k := range []string{primary, secondary} {
			if v := Field(t, k); !v.IsNil() {
				return v.Truthy()
			}
		}
	}
	return false
}

func tableCount(v leia.Value) int64 {
	t := v.Table()
	if t == nil {
		return 0
	}
	if t.Len() > 0 {
		return int64(t.Len())
	}
	return int64(len(Keys(v)))
}

// mergeUnder copies src's fields into dst, overwriting only when over.
func mergeUnder(dst *leia.Table, src leia.Value, over bool) {
	if t := src.Table(); t != nil {
		t.Iter(func(k, v leia.Value) bool {
			if over || dst.Get(k).IsNil() {
				dst.Set(k, deepClone(v))
			}
			return true
		})
	}
}

// PackageContract is llm.provider_free_package_contract.
func PackageContract(src, opts leia.Value) leia.Value {
	out := copyAll(src)
	out.SetStr("__llm_package_contract", leia.True)
	out.SetStr("kind", leia.String("provider_free_package_contract"))
	out.SetStr("schema_version", leia.Int(optInt(src, "schema_version", optInt(opts, "schema_version", 1))))
	out.SetStr("version", leia.String(optString(src, "version", optString(opts, "version", "provider_free_package_contract.v1"))))
	id := optString(src, "package_id", optString(src, "id", optString(opts, "package_id", "package")))
	out.SetStr("package_id", leia.String(id))
	if out.GetStr("id").IsNil() {
		out.SetStr("id", leia.String(id))
	}
	if out.GetStr("package_name").IsNil() {
		out.SetStr("package_name", leia.String(optString(opts, "package_name", id)))
	}
	out.SetStr("provider_free", leia.Bool(boolOf(src, opts, "provider_free", true)))
	out.SetStr("offline_verifiable", leia.Bool(boolOf(src, opts, "offline_verifiable", true)))
	out.SetStr("domain_specific", leia.Bool(boolOf(src, opts, "domain_specific", false)))
	for _, p := range packageFlags {
		b := pairBool(src, opts, p[0], p[1])
		out.SetStr(p[0], leia.Bool(b))
		out.SetStr(p[1], leia.Bool(b))
	}
	out.SetStr("secret_values_present", leia.Bool(boolOf(src, opts, "secret_values_present", false)))
	policy := leia.NewTable(0, 6)
	mergeUnder(policy, Field(src, "default_policy"), true)
	mergeUnder(policy, Field(opts, "default_policy"), false)
	pv := leia.TableValue(policy)
	policy.SetStr("mode", leia.String(optString(pv, "mode", replayModeFixture)))
	for _, f := range []string{"live_network", "provider_credentials_required", "real_dependency_imports"} {
		policy.SetStr(f, leia.Bool(optBool(pv, f, false)))
	}
	policy.SetStr("clean_skip_without_dependency", leia.Bool(optBool(pv, "clean_skip_without_dependency", true)))
	out.SetStr("default_policy", pv)
	creds := leia.NewTable(0, 8)
	mergeUnder(creds, Field(src, "credentials"), true)
	mergeUnder(creds, Field(opts, "credentials"), false)
	for _, f := range []string{"required", "optional", "required_env", "optional_env", "secret_env_patterns", "secret_refs"} {
		if creds.GetStr(f).IsNil() {
			creds.SetStr(f, leia.TableValue(newList()))
		}
	}
	creds.SetStr("provider_credentials_required", leia.Bool(optBool(leia.TableValue(creds), "provider_credentials_required", false)))
	out.SetStr("credentials", leia.TableValue(creds))
	for _, f := range []string{"entrypoints", "schemas", "fixtures"} {
		out.SetStr(strings.TrimSuffix(f, "s")+"_count", leia.Int(tableCount(out.GetStr(f))))
	}
	out.SetStr("capability_count", leia.Int(tableCount(out.GetStr("capabilities"))))
	out.SetStr("summary", packageSummary(leia.TableValue(out)))
	return leia.TableValue(out)
}

func packageSummary(c leia.Value) leia.Value {
	sum := leia.NewTable(0, 16)
	copyScalars(sum, c, []string{"package_id", "package_name", "provider_free", "offline_verifiable", "domain_specific",
		"live_network", "live_network_default", "real_dependency_imports", "real_dependency_import_default", "live_model",
		"live_model_default", "credentials_required", "entrypoint_count", "schema_count", "fixture_count", "capability_count"})
	return leia.TableValue(sum)
}

// ValidatePackageContract is llm.validate_package_contract.
func ValidatePackageContract(c, opts leia.Value) leia.Value {
	f := refFindings{newList()}
	if optBool(opts, "require_provider_free", true) && !optBool(c, "provider_free", false) {
		f.add("provider_free", "package contract must be provider-free", "")
	}
	if optBool(opts, "require_offline", true) {
		checks := []struct{ a, b, kind, msg string }{
			{"live_network", "live_network_default", "live_network_default", "package contract must default live network off"},
			{"real_dependency_imports", "real_dependency_import_default", "real_dependency_import_default", "package contract must default real dependency imports off"},
			{"live_model", "live_model_default", "live_model_default", "package contract must default live model calls off"},
			{"credentials_required", "provider_credentials_required", "provider_credentials_required", "package contract must not require provider credentials by default"},
		}
		for _, ch := range checks {
			if optBool(c, ch.a, optBool(c, ch.b, false)) {
				f.add(ch.kind, ch.msg, "")
			}
		}
	}
	if p := Field(c, "default_policy"); p.Table() == nil {
		f.add("default_policy", "package contract must include default policy", "")
	} else {
		if optString(p, "mode", "") != replayModeFixture {
			f.add("default_policy.mode", "default policy mode must be fixture_replay", "")
		}
		for _, k := range []string{"live_network", "provider_credentials_required", "real_dependency_imports"} {
			if v := Field(p, k); !v.IsNil() && (v.Kind() != leia.KindBool || v.AsBool()) {
				f.add("default_policy."+k, "default policy "+k+" must be false", "")
			}
		}
	}
	if cr := Field(c, "credentials"); cr.Table() != nil {
		if optBool(cr, "provider_credentials_required", false) {
			f.add("credentials.provider_credentials_required", "credentials must not require provider credentials by default", "")
		}
		for _, k := range []string{"required", "required_env", "secret_refs"} {
			if v := Field(cr, k); v.Table() != nil && tableCount(v) > 0 {
				f.add("credentials."+k, "provider-free package contract must not require credential refs", "")
			}
		}
	}
	for _, field := range []string{"entrypoints", "schemas", "fixtures"} {
		refs := Field(c, field)
		if refs.Table() == nil {
			continue
		}
		refs.Table().Iter(func(k, v leia.Value) bool {
			label := field
			if k.Kind() == leia.KindString {
				label = field + "." + k.AsString()
			}
			checkPackageRef(f, label, v, 0)
			return true
		})
	}
	if optBool(opts, "require_entrypoints", false) && tableCount(Field(c, "entrypoints")) == 0 {
		f.add("entrypoints", "package contract must include entrypoints", "")
	}
	if optBool(opts, "require_fixture_index", false) {
		has := false
		for _, field := range []string{"entrypoints", "fixtures"} {
			for _, k := range []string{"fixture_index", "index"} {
				has = has || optString(Field(c, field), k, "") != ""
			}
		}
		if !has {
			f.add("fixture_index", "package contract must reference a fixture index", "")
		}
	}
	out := leia.NewTable(0, 10)
	out.SetStr("kind", leia.String("package_contract_validation"))
	out.SetStr("schema_version", leia.Int(1))
	out.SetStr("version", leia.String("package_contract_validation.v1"))
	gateTable(out, f.t)
	out.SetStr("package_id", deepClone(Field(c, "package_id")))
	out.SetStr("summary", packageSummary(c))
	return leia.TableValue(out)
}

func checkPackageRef(f refFindings, field string, v leia.Value, depth int) {
	switch {
	case v.Kind() == leia.KindString:
		if v.AsString() == "" {
			f.add(field, "package reference must be non-empty", "")
			return
		}
		f.checkReference(field, v.AsString(), "")
	case v.Table() != nil:
		if depth >= maxDocsDepth {
			return
		}
		for _, it := range entryValues(v) {
			checkPackageRef(f, field, it, depth+1)
		}
	case !v.IsNil():
		f.add(field, "package reference must be a string or string table", "")
	}
}

// fixtureIndexFamily is the llm module's natives from this file (see families).
func fixtureIndexFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	withCamel(m, tableAndOptions("fixture_index", "fixture index table", FixtureIndex), "fixture_index")
	withCamel(m, tableAndOptions("validate_fixture_index", "fixture index table", ValidateFixtureIndex), "validate_fixture_index")
	withCamel(m, tableAndOptions("provider_free_package_contract", "package contract table", PackageContract), "provider_free_package_contract")
	withCamel(m, tableAndOptions("validate_package_contract", "package contract table", ValidatePackageContract), "validate_package_contract")
	return m
}

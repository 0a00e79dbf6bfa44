package ai

import (
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/runtime/leia"
)

// llm.config keeps credentials out of source: a configuration table
// names its secrets by environment variable and only resolve reads them.
//
//	config.secret(name, {required?})  a secret reference {kind: "secret_ref", env, required}
//	config.table(tbl)                 a configuration table (a copy, marked kind "config")
//	config.display(cfg)               a copy safe to print: references read "<secret:NAME>"
//	config.resolve(cfg)               cfg with references replaced by their values, or nil, err
//	                                  {kind: "config", message} naming a missing required variable
//	config.redact(cfg)                a copy with resolved secrets, and fields named like keys
//	                                  (api_key, token, secret, password ...), as "<redacted>"
//	config.aliases(tbl)               validated model aliases {kind: "model_aliases", aliases, default}, or nil, err
//	config.route(aliases, {model, replay?})  the provider decision of a model {kind: "model_route",
//	                                  alias, provider, provider_model, trace, replay: {decision}}; with
//	                                  replay.decision, that decision again (provider-free)
//
// Values are read through the host's environment; nothing is logged or
// traced.

const configRedacted = "<redacted>"

// maxConfigDepth bounds the walk over nested configuration tables.
const maxConfigDepth = 32

func (rt *Runtime) configModule() leia.Value {
	m := leia.NewTable(0, 6)
	set := func(name string, fn leia.NativeFunc) { m.SetStr(name, leia.NewNative("llm.config."+name, fn)) }
	set("secret", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		name, err := leia.CheckString(a, 0, "secret")
		if err != nil || name == "" {
			return nil, fmt.Errorf("bad argument #1 to 'secret' (environment variable name expected)")
		}
		req := Field(leia.Arg(a, 1), "required")
		return t.Ret1(T("kind", "secret_ref", "env", name, "required", req.IsNil() || req.Truthy())), nil
	})
	set("table", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if leia.Arg(a, 0).Table() == nil {
			return nil, fmt.Errorf("bad argument #1 to 'table' (table expected)")
		}
		c := Clone(a[0])
		c.SetStr("__config", leia.True)
		return t.Ret1(leia.TableValue(c)), nil
	})
	set("display", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		return t.Ret1(walkConfig(leia.Arg(a, 0), 0, func(ref leia.Value) (leia.Value, error) {
			return leia.String("<secret:" + StrField(ref, "env") + ">"), nil
		}, false)), nil
	})
	set("resolve", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		var missing string
		out := walkConfig(leia.Arg(a, 0), 0, func(ref leia.Value) (leia.Value, error) {
			name := StrField(ref, "env")
			if v, ok := rt.lookupEnv(name); ok && v != "" {
				return T("kind", "secret_value", "env", name, "value", v), nil
			}
			if Field(ref, "required").Truthy() && missing == "" {
				missing = name
			}
			return leia.Nil, nil
		}, false)
		if missing != "" {
			return t.Ret2(leia.Nil, ErrorWith("config", "missing required secret "+missing, "env", missing)), nil
		}
		return t.Ret2(unwrapSecrets(out, 0), leia.Nil), nil
	})
	set("redact", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		return t.Ret1(walkConfig(leia.Arg(a, 0), 0, func(ref leia.Value) (leia.Value, error) {
			return leia.String(configRedacted), nil
		}, true)), nil
	})
	set("aliases", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		tbl := leia.Arg(a, 0)
		if tbl.Table() == nil {
			return nil, fmt.Errorf("bad argument #1 to 'aliases' (table expected)")
		}
		probe := &Runtime{models: leia.NewTable(0, 0)}
		if err := probe.RegisterModels(tbl); err != nil {
			return t.Ret2(leia.Nil, ErrorValue("config", err.Error())), nil
		}
		return t.Ret2(T("kind", "model_aliases", "aliases", leia.TableValue(Clone(tbl)), "default", Field(tbl, "default")), leia.Nil), nil
	})
	set("route", func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		models, opts := leia.Arg(a, 0), leia.Arg(a, 1)
		aliases := Field(models, "aliases")
		if aliases.Table() == nil {
			aliases = models
		}
		if aliases.Table() == nil {
			return nil, fmt.Errorf("bad argument #1 to 'route' (model aliases expected)")
		}
		if d := Field(Field(Field(opts, "replay"), "decision"), "alias"); !d.IsNil() {
			dec := Field(Field(opts, "replay"), "decision")
			return t.Ret2(T("kind", "model_route", "alias", Field(dec, "alias"), "provider", Field(dec, "provider"),
				"provider_model", Field(dec, "provider_model"), "replayed", true, "replay", T("decision", dec)), leia.Nil), nil
		}
		requested := Field(opts, "model")
		probe := &Runtime{models: aliases.Table()}
		name, cfg := probe.modelConfig(requested)
		if cfg.IsNil() {
			return t.Ret2(leia.Nil, ErrorWith("config", "model "+Str(requested)+" resolves to no provider configuration", "model", requested)), nil
		}
		dec := T("alias", Str(requested), "resolved_alias", name, "provider", StrField(cfg, "provider"), "provider_model", providerModel(cfg, name))
		if requested.IsNil() {
			dec.Table().SetStr("alias", leia.String("default"))
		}
		trace := rt.TraceEvent(T("event_type", "model_route_selected", "status", "selected",
			"payload", T("alias", Field(dec, "alias"), "provider", Field(dec, "provider"), "provider_model", Field(dec, "provider_model"))))
		return t.Ret2(T("kind", "model_route", "alias", Field(dec, "alias"), "provider", Field(dec, "provider"),
			"provider_model", Field(dec, "provider_model"), "replayed", false, "trace", trace, "replay", T("decision", dec)), leia.Nil), nil
	})
	return leia.TableValue(m)
}

func (rt *Runtime) lookupEnv(name string) (string, bool) {
	if rt.cfg.Host != nil {
		return rt.cfg.Host.LookupEnv(name)
	}
	return "", false
}

// walkConfig copies a configuration, replacing secret references (and,
// with redactKeys, values under key-like field names and resolved
// secrets) by what ref gives.
func walkConfig(v leia.Value, depth int, ref func(leia.Value) (leia.Value, error), redactKeys bool) leia.Value {
	t := v.Table()
	if t == nil || depth > maxConfigDepth {
		return v
	}
	switch StrField(v, "kind") {
	case "secret_ref":
		r, _ := ref(v)
		return r
	case "secret_value":
		if redactKeys {
			return leia.String(configRedacted)
		}
		return v
	}
	out := leia.NewTable(t.Len(), 8)
	t.Iter(func(k, val leia.Value) bool {
		if redactKeys && k.Kind() == leia.KindString && secretLike(k.AsString()) && val.Kind() == leia.KindString && val.AsString() != "" {
			out.Set(k, leia.String(configRedacted))
			return true
		}
		out.Set(k, walkConfig(val, depth+1, ref, redactKeys))
		return true
	})
	return leia.TableValue(out)
}

// unwrapSecrets turns resolved secret values into their plain strings,
// remembering nothing.
func unwrapSecrets(v leia.Value, depth int) leia.Value {
	t := v.Table()
	if t == nil || depth > maxConfigDepth {
		return v
	}
	if StrField(v, "kind") == "secret_value" {
		return Field(v, "value")
	}
	out := leia.NewTable(t.Len(), 8)
	t.Iter(func(k, val leia.Value) bool {
		out.Set(k, unwrapSecrets(val, depth+1))
		return true
	})
	return leia.TableValue(out)
}

func secretLike(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"api_key", "apikey", "token", "secret", "password", "credential", "authorization"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

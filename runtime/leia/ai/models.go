package ai

import (
	"fmt"
	"strings"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/leia"
	"github.com/harnlang/harn-check/runtime/llm"
)

// Model aliases: model { ... } / llm.register_models({...}) replaces the
// run's alias table. A field is a string alias (another alias or a
// provider model name) or a provider configuration table {protocol,
// base_url | endpoint, api_key | api_key_env, provider_model | model,
// provider}. `default` is used when a request names no model. Alias
// cycles are refused when registered.

// modelsFamily is the llm module's natives from this file (see families).
func modelsFamily(rt *Runtime) map[string]leia.NativeFunc {
	reg := func(name string) leia.NativeFunc {
		return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			tbl := leia.Arg(a, 0)
			if tbl.Table() == nil {
				return nil, fmt.Errorf("bad argument #1 to 'llm.%s' (table expected)", name)
			}
			if err := rt.RegisterModels(tbl); err != nil {
				return nil, err
			}
			return t.Ret2(leia.True, leia.Nil), nil
		}
	}
	return map[string]leia.NativeFunc{"register_models": reg("register_models"), "models": reg("models")}
}

// maxAliasHops bounds alias chains.
const maxAliasHops = 64

// RegisterModels validates and installs an alias table.
func (rt *Runtime) RegisterModels(tbl leia.Value) error {
	for _, name := range Keys(tbl) {
		v := Field(tbl, name)
		if v.Table() != nil {
			if err := checkProviderConfig(name, v); err != nil {
				return err
			}
			continue
		}
		if v.Kind() != leia.KindString || v.AsString() == "" {
			continue
		}
		seen := map[string]int{name: 0}
		path := []string{name}
		for next := v.AsString(); ; {
			if i, ok := seen[next]; ok {
				return fmt.Errorf("llm model alias cycle: %s", strings.Join(append(path[i:], next), " -> "))
			}
			if len(path) > maxAliasHops {
				return fmt.Errorf("llm model alias chain from %q is longer than %d", name, maxAliasHops)
			}
			seen[next] = len(path)
			path = append(path, next)
			w := Field(tbl, next)
			if w.Kind() != leia.KindString || w.AsString() == "" {
				break
			}
			next = w.AsString()
		}
	}
	rt.models = Clone(tbl)
	return nil
}

// checkProviderConfig refuses a provider configuration that cannot be
// used: an unknown protocol, or a protocol without a model.
func checkProviderConfig(name string, cfg leia.Value) error {
	proto := StrField(cfg, "protocol")
	if proto == "" {
		return nil
	}
	if _, ok := normalizeProtocol(proto); !ok {
		return fmt.Errorf("model %q: unsupported model protocol %q (want one of %s)", name, proto, strings.Join(catalog.ChatProtocols(), ", "))
	}
	return nil
}

// normalizeProtocol maps a protocol name to a runtime/llm API (the
// catalog's table, which the Leia checker's LEIA3001 reads too).
func normalizeProtocol(p string) (string, bool) { return catalog.ChatAPI(p) }

// ResolveModel returns the provider model name a request's model field
// (or the default alias) stands for: string aliases are followed, a
// configuration table gives its provider_model (or model), an unknown
// name is itself.
func (rt *Runtime) ResolveModel(model leia.Value) string {
	if model.IsNil() {
		model = rt.models.GetStr("default")
		if model.Table() != nil {
			return providerModel(model, "default")
		}
	}
	name := Str(model)
	for hops := 0; name != "" && hops < maxAliasHops; hops++ {
		v := rt.models.GetStr(name)
		switch {
		case v.Kind() == leia.KindString && v.AsString() != "":
			name = v.AsString()
		case v.Table() != nil:
			return providerModel(v, name)
		default:
			return name
		}
	}
	return name
}

func providerModel(cfg leia.Value, fallback string) string {
	if m := StrField(cfg, "provider_model"); m != "" {
		return m
	}
	if m := StrField(cfg, "model"); m != "" {
		return m
	}
	return fallback
}

// modelConfig finds the provider configuration a request's model leads
// to (following string aliases), or nil.
func (rt *Runtime) modelConfig(model leia.Value) (string, leia.Value) {
	if model.IsNil() {
		model = rt.models.GetStr("default")
		if model.Table() != nil {
			return "default", model
		}
	}
	name := Str(model)
	for hops := 0; name != "" && hops < maxAliasHops; hops++ {
		v := rt.models.GetStr(name)
		switch {
		case v.Table() != nil:
			return name, v
		case v.Kind() == leia.KindString && v.AsString() != "":
			name = v.AsString()
		default:
			return "", leia.Nil
		}
	}
	return "", leia.Nil
}

// providerFor picks the provider of a request: the host's provider when
// it set one, else one made from the model's configuration by the
// host's factory. (nil, nil) means none is configured.
func (rt *Runtime) providerFor(model leia.Value) (llm.Provider, leia.Value) {
	if rt.cfg.Provider != nil {
		return rt.cfg.Provider, leia.Nil
	}
	if rt.cfg.Factory == nil {
		return nil, leia.Nil
	}
	name, cfg := rt.modelConfig(model)
	if cfg.IsNil() || StrField(cfg, "protocol") == "" {
		return nil, leia.Nil
	}
	pc := ProviderConfig{
		Name:          name,
		Protocol:      StrField(cfg, "protocol"),
		BaseURL:       StrField(cfg, "base_url"),
		APIKey:        StrField(cfg, "api_key"),
		APIKeyEnv:     StrField(cfg, "api_key_env"),
		ProviderModel: providerModel(cfg, ""),
		Provider:      StrField(cfg, "provider"),
	}
	if pc.BaseURL == "" {
		pc.BaseURL = StrField(cfg, "endpoint")
	}
	p, err := rt.cfg.Factory(pc)
	if err != nil {
		return nil, ErrorValue("provider", err.Error())
	}
	if p == nil {
		return nil, ErrorValue("provider", "llm provider factory returned nil")
	}
	return p, leia.Nil
}

package harn

import (
	"strings"

	"github.com/harnlang/harn-check/catalog"
	"github.com/harnlang/harn-check/runtime/runner"
)

// The llm configuration family: what a program may ask about providers
// and models before calling one. Every answer comes from the catalog
// package (providers, aliases, tiers, the capability matrix, the routes
// and their prices), the same facts the checker and the model stack use:
// llm_infer_provider, llm_model_tier, llm_resolve_model, llm_model_info,
// llm_known_models, llm_providers, llm_available_providers,
// llm_provider_catalog, llm_config, llm_qc_default_model, llm_pick_model,
// llm_healthcheck, provider_capabilities and its _install/_clear.

func strList(items []string) Value {
	out := make([]Value, len(items))
	for i, s := range items {
		out[i] = Str(s)
	}
	return NewListValue(out)
}

// defaultProvider is the provider of a model id no rule claims:
// HARN_DEFAULT_PROVIDER when set (and not "auto"), else Anthropic.
func defaultProvider(in *Interp) string {
	if v, ok := in.host.LookupEnv("HARN_DEFAULT_PROVIDER"); ok {
		if v = strings.TrimSpace(v); v != "" && !strings.EqualFold(v, "auto") {
			return v
		}
	}
	return "anthropic"
}

// authAvailable reports whether provider's credential is set (keyless
// providers always are).
func authAvailable(in *Interp, name string) bool {
	p, ok := catalog.LookupProvider(name)
	if !ok {
		return name == "ollama"
	}
	if !p.NeedsAuth() {
		return true
	}
	for _, env := range p.AuthEnv {
		if v, ok := in.host.LookupEnv(env); ok && strings.TrimSpace(v) != "" {
			return true
		}
	}
	return false
}

// resolvedModel is an alias or selector resolved to its model.
type resolvedModel struct {
	id, provider, alias, toolFormat, tier string
}

func resolveModel(in *Interp, selector string) resolvedModel {
	if a, ok := catalog.LookupAlias(selector); ok {
		return resolvedModel{id: a.ID, provider: a.Provider, alias: selector,
			toolFormat: catalog.DefaultToolFormat(a.Provider), tier: catalog.ModelTier(a.ID)}
	}
	provider := catalog.InferProvider(selector, defaultProvider(in))
	id := catalog.NormalizeModelID(selector)
	return resolvedModel{id: id, provider: provider, toolFormat: catalog.DefaultToolFormat(provider), tier: catalog.ModelTier(id)}
}

func (r resolvedModel) value() *Dict {
	d := NewDict(5)
	d.Set("id", Str(r.id))
	d.Set("provider", Str(r.provider))
	if r.alias != "" {
		d.Set("alias", Str(r.alias))
	} else {
		d.Set("alias", Nil)
	}
	d.Set("tool_format", Str(r.toolFormat))
	d.Set("tier", Str(r.tier))
	return d
}

// capabilityOverrides holds the rules provider_capabilities_install
// added for this run (nil: none).
type capabilityOverrides struct{ m *catalog.CapabilityMatrix }

func (in *Interp) capabilities(provider, model string) catalog.Capabilities {
	o := in.State("capability_overrides", func() any { return &capabilityOverrides{} }).(*capabilityOverrides)
	return catalog.LookupCapabilities(o.m, provider, model)
}

func (in *Interp) setCapabilityOverrides(m *catalog.CapabilityMatrix) {
	in.State("capability_overrides", func() any { return &capabilityOverrides{} }).(*capabilityOverrides).m = m
}

func capabilitiesValue(in *Interp, provider, model string) Value {
	c := in.capabilities(provider, model)
	d := NewDict(20)
	d.Set("provider", Str(provider))
	d.Set("model", Str(model))
	d.Set("native_tools", Bool(c.NativeTools))
	d.Set("defer_loading", Bool(c.DeferLoading))
	d.Set("tool_search", strList(c.ToolSearch))
	if c.MaxTools != nil {
		d.Set("max_tools", Int(*c.MaxTools))
	} else {
		d.Set("max_tools", Nil)
	}
	d.Set("prompt_caching", Bool(c.PromptCaching))
	d.Set("thinking", Bool(len(c.ThinkingModes) > 0))
	d.Set("thinking_modes", strList(c.ThinkingModes))
	d.Set("interleaved_thinking_supported", Bool(c.InterleavedThinking))
	d.Set("anthropic_beta_features", strList(c.AnthropicBetaFeatures))
	d.Set("vision", Bool(c.Vision))
	d.Set("vision_supported", Bool(c.VisionSupported))
	d.Set("audio", Bool(c.Audio))
	d.Set("pdf", Bool(c.PDF))
	if c.StructuredOutput != "" {
		d.Set("structured_output", Str(c.StructuredOutput))
		d.Set("json_schema", Str(c.StructuredOutput))
	} else {
		d.Set("structured_output", Nil)
		d.Set("json_schema", Nil)
	}
	d.Set("preserve_thinking", Bool(c.PreserveThinking))
	d.Set("server_parser", Str(c.ServerParser))
	d.Set("honors_chat_template_kwargs", Bool(c.HonorsChatTemplateKwargs))
	d.Set("requires_completion_tokens", Bool(c.RequiresCompletionTokens))
	d.Set("reasoning_effort_supported", Bool(c.ReasoningEffortSupported))
	if c.RecommendedEndpoint != "" {
		d.Set("recommended_endpoint", Str(c.RecommendedEndpoint))
	} else {
		d.Set("recommended_endpoint", Nil)
	}
	d.Set("text_tool_wire_format_supported", Bool(c.TextToolWireFormatSupported))
	return DictValue(d)
}

// modelEntry is the catalog entry of a model id: the text-generation
// route serving it (by model or wire name), with its window and price.
func modelEntry(id string) (Value, bool) {
	for _, r := range catalog.Default().Routes() {
		if !r.Supports(catalog.OpTextGeneration) || r.Provider == "mock" || (id != r.Model && id != r.WireModel) {
			continue
		}
		return routeEntry(r), true
	}
	return Nil, false
}

func routeEntry(r catalog.Route) Value {
	d := NewDict(7)
	d.Set("id", Str(r.Model))
	d.Set("name", Str(r.Name()))
	d.Set("provider", Str(r.Provider))
	d.Set("context_window", Int(int64(r.ContextWindow)))
	d.Set("stream_timeout", Nil)
	d.Set("capabilities", strList(r.Operations))
	if p, ok := catalog.ModelPrice(r.Model); ok {
		pd := NewDict(4)
		pd.Set("input_per_mtok", Float(p.InputPerMTok))
		pd.Set("output_per_mtok", Float(p.OutputPerMTok))
		pd.Set("cache_read_per_mtok", Nil)
		pd.Set("cache_write_per_mtok", Nil)
		d.Set("pricing", DictValue(pd))
	} else {
		d.Set("pricing", Nil)
	}
	return DictValue(d)
}

func providerValue(in *Interp, p catalog.Provider) Value {
	d := NewDict(9)
	d.Set("name", Str(p.Name))
	d.Set("base_url", Str(p.BaseURL))
	if p.BaseURLEnv != "" {
		d.Set("base_url_env", Str(p.BaseURLEnv))
	} else {
		d.Set("base_url_env", Nil)
	}
	d.Set("auth_style", Str(p.AuthStyle))
	d.Set("auth_envs", strList(p.AuthEnv))
	d.Set("auth_available", Bool(authAvailable(in, p.Name)))
	d.Set("chat_endpoint", Str(p.ChatEndpoint))
	d.Set("features", strList(p.Features))
	return DictValue(d)
}

func availableProviders(in *Interp) []string {
	var out []string
	for _, n := range catalog.ProviderNames() {
		if authAvailable(in, n) {
			out = append(out, n)
		}
	}
	return out
}

// healthcheck answers llm_healthcheck without reaching the network
// unless the run grants it: an unknown provider, an Ollama warmup without
// a model and missing credentials are reported from the catalog; a probe
// that needs the network says it is not granted.
func healthcheck(c *Call, args []Value) Value {
	name, key := "anthropic", ""
	var opts *Dict
	for i, a := range args {
		switch {
		case a.k == KindString && i == 0:
			name = a.AsString()
		case a.k == KindString && i == 1:
			key = a.AsString()
		case a.k == KindDict:
			opts = a.AsDict()
			if p := dictString(opts, "provider"); p != "" {
				name = p
			}
			if k := dictString(opts, "api_key"); k != "" {
				key = k
			}
		}
	}
	name = strings.TrimSpace(name)
	if name == "" {
		name = "anthropic"
	}
	result := func(valid bool, reason, message string, meta map[string]Value) Value {
		md := NewDict(2 + len(meta))
		md.Set("reason", Str(reason))
		md.Set("provider", Str(name))
		for k, v := range meta {
			md.Set(k, v)
		}
		d := NewDict(4)
		d.Set("provider", Str(name))
		d.Set("valid", Bool(valid))
		d.Set("message", Str(message))
		d.Set("metadata", DictValue(md))
		return DictValue(d)
	}
	p, ok := catalog.LookupProvider(name)
	if !ok {
		return result(false, "unknown_provider", "Unknown provider: "+name, nil)
	}
	if name == "ollama" && opts != nil && (optBool(opts, "warm") || optBool(opts, "preload")) && dictString(opts, "model") == "" {
		d := NewDict(3)
		d.Set("valid", Bool(false))
		d.Set("status", Str("invalid_request"))
		d.Set("message", Str("Ollama warmup requires options.model"))
		return DictValue(d)
	}
	if p.HealthMethod == "" {
		return result(false, "no_healthcheck", "No healthcheck configured for "+name, nil)
	}
	if key == "" && p.NeedsAuth() && !authAvailable(c.th.in, name) {
		return result(false, "missing_credentials",
			"Missing credentials for "+name+": set "+strings.Join(p.AuthEnv, ", ")+" or pass an api_key",
			map[string]Value{"auth_env": strList(p.AuthEnv)})
	}
	url := p.HealthPath
	if !strings.Contains(url, "://") {
		url = strings.TrimSuffix(p.BaseURL, "/") + url
	}
	meta := map[string]Value{"url": Str(url), "method": Str(p.HealthMethod)}
	if err := c.th.in.host.CheckNet(hostOf(url)); err != nil {
		return result(false, "network_denied", name+" healthcheck needs the network: "+err.Error(), meta)
	}
	return result(false, "probe_unavailable", name+" healthcheck: live probes are not provided by this runtime", meta)
}

// hostOf is the host[:port] of an absolute URL.
func hostOf(url string) string {
	_, rest, _ := strings.Cut(url, "://")
	host, _, _ := strings.Cut(rest, "/")
	return host
}

func installLlmConfig(lib *Library) {
	lib.Builtin("llm_infer_provider", func(c *Call, args []Value) (Value, error) {
		return Str(catalog.InferProvider(Display(Arg(args, 0)), defaultProvider(c.th.in))), nil
	})
	lib.Builtin("llm_model_tier", func(c *Call, args []Value) (Value, error) {
		return Str(catalog.ModelTier(Display(Arg(args, 0)))), nil
	})
	lib.Builtin("llm_resolve_model", func(c *Call, args []Value) (Value, error) {
		return DictValue(resolveModel(c.th.in, Display(Arg(args, 0))).value()), nil
	})
	lib.Builtin("llm_model_info", func(c *Call, args []Value) (Value, error) {
		r := resolveModel(c.th.in, Display(Arg(args, 0)))
		d := r.value()
		d.Set("capabilities", capabilitiesValue(c.th.in, r.provider, r.id))
		entry, _ := modelEntry(r.id)
		d.Set("catalog", entry)
		if qc, ok := catalog.QCDefaults()[r.provider]; ok {
			d.Set("qc_default_model", Str(qc))
		} else {
			d.Set("qc_default_model", Nil)
		}
		d.Set("auth_available", Bool(authAvailable(c.th.in, r.provider)))
		return DictValue(d), nil
	})
	lib.Builtin("llm_known_models", func(c *Call, args []Value) (Value, error) {
		return strList(catalog.AliasNames()), nil
	})
	lib.Builtin("llm_providers", func(c *Call, args []Value) (Value, error) {
		return strList(catalog.ProviderNames()), nil
	})
	lib.Builtin("llm_available_providers", func(c *Call, args []Value) (Value, error) {
		return strList(availableProviders(c.th.in)), nil
	})
	lib.Builtin("llm_qc_default_model", func(c *Call, args []Value) (Value, error) {
		name := Display(Arg(args, 0))
		if Arg(args, 0).k == KindNil || name == "" {
			return Nil, runtimeError("llm_qc_default_model: provider name is required")
		}
		if m, ok := catalog.QCDefaults()[name]; ok {
			return Str(m), nil
		}
		return Nil, nil
	})
	lib.Builtin("llm_pick_model", func(c *Call, args []Value) (Value, error) {
		r := resolveModel(c.th.in, Display(Arg(args, 0)))
		d := NewDict(3)
		d.Set("id", Str(r.id))
		d.Set("provider", Str(r.provider))
		d.Set("tier", Str(r.tier))
		return DictValue(d), nil
	})
	lib.Builtin("llm_config", func(c *Call, args []Value) (Value, error) {
		if len(args) > 0 && args[0].k != KindNil {
			p, ok := catalog.LookupProvider(Display(args[0]))
			if !ok {
				return Nil, nil
			}
			return providerValue(c.th.in, p), nil
		}
		names := catalog.ProviderNames()
		d := NewDict(len(names))
		for _, n := range names {
			p, _ := catalog.LookupProvider(n)
			d.Set(n, providerValue(c.th.in, p))
		}
		return DictValue(d), nil
	})
	lib.Builtin("llm_provider_catalog", func(c *Call, args []Value) (Value, error) {
		var provs, aliases, models []Value
		for _, n := range catalog.ProviderNames() {
			p, _ := catalog.LookupProvider(n)
			provs = append(provs, providerValue(c.th.in, p))
		}
		for _, n := range catalog.AliasNames() {
			a, _ := catalog.LookupAlias(n)
			d := NewDict(4)
			d.Set("name", Str(n))
			d.Set("id", Str(a.ID))
			d.Set("provider", Str(a.Provider))
			d.Set("tool_format", Str(catalog.DefaultToolFormat(a.Provider)))
			aliases = append(aliases, DictValue(d))
		}
		for _, r := range catalog.Default().Routes() {
			if r.Supports(catalog.OpTextGeneration) && r.Provider != "mock" {
				models = append(models, routeEntry(r))
			}
		}
		qc := NewDict(5)
		for p, m := range catalog.QCDefaults() {
			qc.Set(p, Str(m))
		}
		d := NewDict(6)
		d.Set("providers", NewListValue(provs))
		d.Set("known_model_names", strList(catalog.AliasNames()))
		d.Set("available_providers", strList(availableProviders(c.th.in)))
		d.Set("aliases", NewListValue(aliases))
		d.Set("models", NewListValue(models))
		d.Set("qc_defaults", DictValue(qc))
		return DictValue(d), nil
	})
	lib.Builtin("llm_healthcheck", func(c *Call, args []Value) (Value, error) {
		return healthcheck(c, args), nil
	})
	lib.Builtin("provider_capabilities", func(c *Call, args []Value) (Value, error) {
		provider := Display(Arg(args, 0))
		if Arg(args, 0).k == KindNil || provider == "" {
			return Nil, runtimeError("provider_capabilities: provider name is required")
		}
		model := ""
		if v := Arg(args, 1); v.k != KindNil {
			model = Display(v)
		}
		return capabilitiesValue(c.th.in, provider, model), nil
	})
	lib.Builtin("provider_capabilities_install", func(c *Call, args []Value) (Value, error) {
		src := ""
		if v := Arg(args, 0); v.k != KindNil {
			src = Display(v)
		}
		if src == "" {
			return Nil, runtimeError("provider_capabilities_install: TOML source string required")
		}
		m, err := catalog.ParseCapabilities(src)
		if err != nil {
			return Nil, runtimeError("provider_capabilities_install: parse error: %v", err)
		}
		c.th.in.setCapabilityOverrides(m)
		return Bool(true), nil
	})
	lib.Builtin("provider_capabilities_clear", func(c *Call, args []Value) (Value, error) {
		c.th.in.setCapabilityOverrides(nil)
		return Bool(true), nil
	})
}

// capabilityGate refuses a request whose options the model's capability
// matrix row does not support (vision, or images in the messages; audio;
// pdf), with upstream's wording. Mocked and replayed runs are not gated:
// a mock answers whatever it is asked.
func (st *llmState) capabilityGate(c *Call, r *llmRequest) error {
	if st.mode == runner.LLMReplay || st.mode == runner.LLMMock || st.mock.Tape != nil || len(st.script.Snapshot()) > 0 {
		return nil
	}
	caps := c.th.in.capabilities(r.provider, r.model)
	refuse := func(option string) error {
		return throwValue(Str("option `" + option + "` is not supported by `" + r.model + "` (provider `" + r.provider +
			"`). See `harn check --provider-matrix` for compatibility."))
	}
	if (optBool(r.opts, "vision") || messagesHaveImages(r.messages)) && !caps.VisionSupported {
		return refuse("vision")
	}
	if optBool(r.opts, "audio") && !caps.Audio {
		return refuse("audio")
	}
	if optBool(r.opts, "pdf") && !caps.PDF {
		return refuse("pdf")
	}
	return nil
}

// messagesHaveImages reports whether a message carries an image block.
func messagesHaveImages(messages []Value) bool {
	for _, m := range messages {
		content, _ := m.AsDict().Get("content")
		if m.k != KindDict || content.k != KindList {
			continue
		}
		for _, b := range content.AsList().SharedItems() {
			if t := dictString(b.AsDict(), "type"); b.k == KindDict && (t == "image" || t == "image_url") {
				return true
			}
		}
	}
	return false
}

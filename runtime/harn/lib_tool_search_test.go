package harn

import (
	"strings"
	"testing"
)

func searchTool(name, desc string, params ...string) Value {
	d := NewDict(4)
	d.Set("name", Str(name))
	d.Set("description", Str(desc))
	p := NewDict(len(params))
	for _, n := range params {
		p.Set(n, DictValue(strDict("type", "string")))
	}
	d.Set("parameters", DictValue(p))
	d.Set("defer_loading", Bool(true))
	return DictValue(d)
}

func TestSearchTools(t *testing.T) {
	tools := []Value{
		searchTool("deploy_service", "Deploy the production service stack", "env"),
		searchTool("query_metrics", "Query observability metrics", "query"),
		searchTool("edit_file", "Edit an existing file", "path"),
		searchTool("create_file", "Create a new file", "path"),
	}
	tests := []struct {
		strategy, query string
		want            string // names, comma-separated
		diag            bool
	}{
		{"bm25", "deploy", "deploy_service", false},
		{"bm25", "file", "create_file,edit_file", false}, // equal scores: by name
		{"bm25", "env", "deploy_service", false},         // parameter names count
		{"bm25", "zebra", "", true},
		{"bm25", "  ", "", true},
		{"regex", "edit|create", "create_file,edit_file", false},
		{"regex", "METRICS", "query_metrics", false},
		{"regex", "(", "", true},
	}
	for _, tc := range tests {
		names, diag := searchTools(tc.strategy, tc.query, tools)
		if strings.Join(names, ",") != tc.want || (diag != "") != tc.diag {
			t.Errorf("searchTools(%s, %q) = %v, %q; want %s (diagnostic %v)", tc.strategy, tc.query, names, diag, tc.want, tc.diag)
		}
	}
	if names, diag := searchTools("bm25", "x", nil); names != nil || diag == "" {
		t.Errorf("empty index: %v %q", names, diag)
	}
}

func TestPromoteEvictsOldestOverBudget(t *testing.T) {
	long := strings.Repeat("a long description ", 20)
	s := &clientToolSearch{cfg: &toolSearchConfig{strategy: "bm25", name: defaultSearchToolName, budget: 150}, cost: map[string]int64{}}
	for _, n := range []string{"alpha", "beta", "gamma"} {
		s.deferred = append(s.deferred, searchTool(n, long, "x"))
	}
	for _, step := range []struct{ promote, want string }{{"alpha", "alpha"}, {"beta", "beta"}, {"gamma", "gamma"}, {"gamma", "gamma"}, {"nope", "gamma"}} {
		s.promote([]string{step.promote})
		if got := strings.Join(s.promoted, ","); got != step.want {
			t.Errorf("after promoting %s: promoted %s, want %s", step.promote, got, step.want)
		}
	}
	s.cfg.budget = 10 // smaller than one tool: nothing fits
	s.promoted, s.cost = nil, map[string]int64{}
	if added := s.promote([]string{"alpha"}); len(added) != 0 {
		t.Errorf("over-budget tool promoted: %v", added)
	}
}

func TestNativeToolSearchShape(t *testing.T) {
	tests := []struct {
		provider, model string
		force           bool
		want            string
	}{
		{"mock", "claude-opus-4-1", false, "anthropic"},
		{"anthropic", "claude-sonnet-4-5-20250929", false, "anthropic"},
		{"mock", "claude-haiku-4-5", false, "anthropic"},
		{"mock", "claude-haiku-4-0", false, ""},
		{"mock", "claude-3-5-sonnet", false, ""},
		{"mock", "gpt-5.4-preview", false, "openai"},
		{"openai", "gpt-6", false, "openai"},
		{"mock", "gpt-4o", false, ""},
		{"mock", "my-internal-model", false, ""},
		{"mock", "my-internal-model", true, "openai"},
		{"ollama", "gpt-5.4", false, ""},
	}
	for _, tc := range tests {
		opts := strDict("provider", tc.provider, "model", tc.model)
		if tc.force {
			o := NewDict(1)
			o.Set("force_native_tool_search", Bool(true))
			opts.Set(tc.provider, DictValue(o))
		}
		if got := nativeToolSearchShape(opts); got != tc.want {
			t.Errorf("nativeToolSearchShape(%s, %s, force %v) = %q, want %q", tc.provider, tc.model, tc.force, got, tc.want)
		}
	}
}

func TestSynthesizedToolSpec(t *testing.T) {
	spec := func(kv ...Value) Value {
		d := NewDict(len(kv) / 2)
		for i := 0; i < len(kv); i += 2 {
			d.Set(kv[i].AsString(), kv[i+1])
		}
		return DictValue(d)
	}
	caps := func(xs ...string) Value { return NewListValue(StrValues(xs)) }
	tests := []struct {
		in             Value
		name, effect   string
		errSubstring   string
		sameIDAsPrevTo bool
	}{
		{in: spec(Str("description"), Str("Fetch the user's calendar!"), Str("capabilities"), caps("http", "oauth:google")), name: "synth_fetch_the_user_s_calendar", effect: "network"},
		{in: spec(Str("description"), Str("Fetch the user's calendar!"), Str("capabilities"), caps("oauth:google", "http")), name: "synth_fetch_the_user_s_calendar", effect: "network", sameIDAsPrevTo: true},
		{in: spec(Str("description"), Str("run"), Str("name"), Str("runner"), Str("capabilities"), caps("shell")), name: "runner", effect: "process_exec"},
		{in: spec(Str("description"), Str("look"), Str("capabilities"), caps("workspace.read")), name: "synth_look", effect: "read_only"},
		{in: spec(Str("description"), Str("???")), name: "synth_tool", effect: "none"},
		{in: spec(Str("description"), Str("x"), Str("name"), Str("bad-name")), errSubstring: "invalid tool name"},
		{in: spec(Str("description"), Str("")), errSubstring: "description must be a non-empty string"},
		{in: spec(Str("description"), Str("x"), Str("executor"), Str("lambda")), errSubstring: "unknown executor"},
	}
	prev := ""
	for i, tc := range tests {
		s, err := parseSynthSpec(tc.in)
		if tc.errSubstring != "" {
			if err == nil || !strings.Contains(asError(err).Message(), tc.errSubstring) {
				t.Errorf("case %d: error %v, want one containing %q", i, err, tc.errSubstring)
			}
			continue
		}
		if err != nil || s.name != tc.name || s.sideEffect != tc.effect {
			t.Errorf("case %d: %+v, %v; want name %s, effect %s", i, s, err, tc.name, tc.effect)
			continue
		}
		if tc.sameIDAsPrevTo != (s.id == prev) {
			t.Errorf("case %d: id %s, previous %s, want same %v", i, s.id, prev, tc.sameIDAsPrevTo)
		}
		prev = s.id
	}
}

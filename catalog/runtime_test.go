package catalog

import (
	"strings"
	"testing"
)

func TestRuntimeDefaults(t *testing.T) {
	cat := Default()
	for _, r := range cat.Routes() {
		rt := r.Runtime
		if rt.StateWindowTokens <= 0 {
			t.Errorf("%s: built-in route declares no state window", r.Name())
		}
		if rt.MaxChoiceOptions <= 0 || rt.ScoreLevelsMin <= 0 || rt.ScoreLevelsMax < rt.ScoreLevelsMin || len(rt.QuestionKinds) == 0 {
			t.Errorf("%s: built-in route declares incomplete limits: %+v", r.Name(), rt)
		}
		if rt.InputPricePerMTok == nil {
			t.Errorf("%s: built-in route has no price", r.Name())
		}
		if r.IsNative() != (rt.API == "") {
			t.Errorf("%s: api %q with protocol %q", r.Name(), rt.API, r.Protocol)
		}
	}
	fx, ok := cat.LookupName("mock/fixture")
	if !ok || fx.Runtime.ContextWindow != 128_000 || fx.Runtime.StateWindowTokens != 128_000-StructuredOverheadTokens || fx.Runtime.API != APIMock {
		t.Errorf("mock/fixture = %+v", fx.Runtime)
	}
	jev, ok := cat.LookupName("openrouter/typesafe/jev-1.13")
	if !ok || jev.Runtime.StateWindowTokens != 32_000 || jev.Runtime.RequestWindowTokens != 64_000 || jev.Runtime.APIKeyEnv != "OPENROUTER_API_KEY" {
		t.Errorf("openrouter jev = %+v", jev.Runtime)
	}
	if _, ok := cat.LookupName("nope"); ok {
		t.Error("a name without a slash resolved")
	}
}

func TestRuntimeParse(t *testing.T) {
	cat, err := Default().Parse("harn.toml", []byte(`
[[routes]]
provider = "local"
model = "judge"
operations = ["text_generation"]
base_url = "http://127.0.0.1:9999/v1"
api_key_env = "LOCAL_KEY"
context_window = 32000
max_questions = 3
input_price_per_mtok = 1.0
output_price_per_mtok = 2.0

[[routes]]
provider = "mock"
model = "fixture"
operations = ["text_generation", "decision"]
context_window = 4096

[routes.mock]
text = "hello"
[routes.mock.answers.safe]
verdict = false
confidence = 0.7
evidence = "fixture"
`))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := cat.LookupName("local/judge")
	rt := r.Runtime
	if rt.API != APIOpenAIChat || rt.BaseURL != "http://127.0.0.1:9999/v1" || rt.APIKeyEnv != "LOCAL_KEY" ||
		rt.StateWindowTokens != 32000-StructuredOverheadTokens || *rt.MaxQuestions != 3 || *rt.OutputPricePerMTok != 2 ||
		rt.WireModel != "judge" || rt.TimeoutMS != DefaultTimeoutMS {
		t.Errorf("local/judge = %+v", rt)
	}
	m, _ := cat.LookupName("mock/fixture")
	if m.Runtime.Mock == nil || m.Runtime.Mock.Text != "hello" || *m.Runtime.Mock.Answers["safe"].Verdict || m.Runtime.StateWindowTokens != 4096-StructuredOverheadTokens {
		t.Errorf("mock/fixture = %+v", m.Runtime)
	}
	if *m.Runtime.InputPricePerMTok != 0 {
		t.Error("mock route has a price")
	}
}

func TestRuntimeParseErrors(t *testing.T) {
	for src, want := range map[string]string{
		"[[routes]]\nprovider = \"a\"\nmodel = \"b\"\napi_key_envv = \"X\"\n":                                         `unknown key "api_key_envv"`,
		"[[routes]]\nprovider = \"a\"\nmodel = \"b\"\napi = \"grpc\"\n":                                               `unknown api "grpc"`,
		"[[routes]]\nprovider = \"a\"\nmodel = \"b\"\ncontext_window = -1\n":                                          "context_window must not be negative",
		"[[routes]]\nprovider = \"a\"\nmodel = \"b\"\nmax_questions = 0\n":                                            "max_questions must be at least 1",
		"[[routes]]\nprovider = \"a\"\nmodel = \"b\"\ninput_price_per_mtok = -2.0\n":                                  "input_price_per_mtok must be a finite nonnegative number",
		"[[routes]]\nprovider = \"a\"\nmodel = \"b\"\nquestion_kinds = [\"essay\"]\n":                                 `unknown question kind "essay"`,
		"[[routes]]\nprovider = \"a\"\nmodel = \"b\"\nscore_levels_min = 5\nscore_levels_max = 3\n":                   "score_levels_min exceeds score_levels_max",
		"[[routes]]\nprovider = \"mock\"\nmodel = \"b\"\n[routes.mock]\nreply = \"x\"\n":                              `unknown key "mock.reply"`,
		"[[routes]]\nprovider = \"mock\"\nmodel = \"b\"\n[routes.mock.answers.x]\nconfidence = 0.5\n":                 "give exactly one of verdict, choice, level",
		"[[routes]]\nprovider = \"mock\"\nmodel = \"b\"\n[routes.mock.answers.x]\nverdict = true\nconfidence = 1.5\n": "confidence must be in [0, 1]",
	} {
		_, err := Default().Parse("harn.toml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "harn.toml: routes[0]") {
			t.Errorf("%q: err = %v, want %q", src, err, want)
		}
	}
}

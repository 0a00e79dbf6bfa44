package harn

import (
	"strings"
	"testing"
)

func TestSubstituteSkillBody(t *testing.T) {
	tests := []struct {
		body, dir, session string
		args               []string
		want               string
	}{
		{"deploy $1 to $2", "", "", []string{"api", "prod"}, "deploy api to prod"},
		{"all: [$ARGUMENTS]", "", "", nil, "all: []"},
		{"missing $3 and $0", "", "", []string{"a"}, "missing $3 and $0"},
		{"dir ${HARN_SKILL_DIR} sid ${HARN_SESSION_ID}", "/s/x", "sess", nil, "dir /s/x sid sess"},
		{"unset ${HARN_SKILL_DIR} other ${HOME}", "", "", nil, "unset ${HARN_SKILL_DIR} other ${HOME}"},
		{"$$1 costs $ and ${open", "", "", []string{"x"}, "$1 costs $ and ${open"},
	}
	for _, tc := range tests {
		if got := substituteSkillBody(tc.body, tc.args, tc.dir, tc.session); got != tc.want {
			t.Errorf("substituteSkillBody(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}

func TestScoreSkills(t *testing.T) {
	skill := func(kv ...any) Value {
		d := NewDict(len(kv) / 2)
		for i := 0; i < len(kv); i += 2 {
			d.Set(kv[i].(string), kv[i+1].(Value))
		}
		return DictValue(d)
	}
	skills := []Value{
		skill("name", Str("deploy"), "description", Str("Deploy the application"), "when_to_use", Str("User says deploy or ship")),
		skill("name", Str("tests"), "description", Str("Run unit tests")),
		skill("name", Str("infra"), "description", Str("Infrastructure"), "paths", NewListValue([]Value{Str("infra/**"), Str("Dockerfile")})),
		skill("name", Str("secret"), "description", Str("Deploy secrets"), "disable-model-invocation", Bool(true)),
	}
	tests := []struct {
		prompt string
		files  []string
		want   []string // names in rank order
	}{
		{"Please deploy the service", nil, []string{"deploy"}},
		{"run the tests", nil, []string{"tests", "deploy"}}, // "the" is in deploy's description
		{"fix it", []string{"infra/k8s/app.yaml", "README.md"}, []string{"infra"}},
		{"fix it", []string{"Dockerfile.dev"}, nil},
		{"nothing relevant", nil, nil},
	}
	for _, tc := range tests {
		var got []string
		for _, c := range scoreSkills(skills, tc.prompt, tc.files) {
			got = append(got, c.name)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("scoreSkills(%q, %v) = %v, want %v", tc.prompt, tc.files, got, tc.want)
		}
	}
}

func TestGlobMatchTrailingStars(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"infra/**", "infra/terraform/main.tf", true},
		{"infra/**", "infra/x", true},
		{"infra/**", "infra", false},
		{"infra/**", "other/infra/x", false},
		{"docs/**/*.md", "docs/a/b.md", true},
		{"src/*.go", "src/sub/a.go", false},
	}
	for _, tc := range tests {
		if got := globMatch(tc.pattern, tc.path); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}

func TestSplitFrontmatter(t *testing.T) {
	fm, body := splitFrontmatter("---\nname: x\nwhen-to-use: now\nallowed-tools: [a, b]\n---\n# Body\ntext\n")
	if fm["name"] != "x" || fm["when_to_use"] != "now" || body != "# Body\ntext\n" {
		t.Errorf("got %v, %q", fm, body)
	}
	card := skillCard(fm, "dir", "project")
	if got := stringList(dictValue(card, "allowed_tools")); strings.Join(got, ",") != "a,b" {
		t.Errorf("allowed_tools = %v", got)
	}
	if fm, body := splitFrontmatter("no frontmatter"); len(fm) != 0 || body != "no frontmatter" {
		t.Errorf("plain text: %v %q", fm, body)
	}
	if fm, _ := splitFrontmatter("---\nname: x\nno end"); len(fm) != 0 {
		t.Errorf("unterminated: %v", fm)
	}
}

package blueprint

import (
	"testing"
)

// FuzzParse: any bytes give a blueprint and diagnostics whose spans lie
// inside the input, never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"[agent.output]\nformat = \"a2ui\"\nvalidator = \"v.rhai\"\non_validator_error = \"accept\"\n",
		"[stages.a.output]\nvalidator = { inline = 'fn validate(c) { () }' }\n",
		"[[graph.stages]]\nname = \"a\"\noutput = { validator = { file = \"../x\" }, on_validator_error = 1 }\n[[graph.stages]]\n[graph.stages.output]\nformat = 2\n",
		"a.b.c = [1, {x = 2}]\n[a]\n",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		LooksLikeBlueprint(data)
		_, diags := Parse(dir+"/blueprint.toml", data)
		for _, d := range diags {
			if d.Span.Start < 0 || d.Span.End < d.Span.Start || d.Span.End > len(data) {
				t.Fatalf("span %+v outside %d bytes: %s", d.Span, len(data), d.Message)
			}
		}
	})
}

package input

import (
	"strings"
	"testing"
)

func TestParseKeepsOrderAndShapes(t *testing.T) {
	src := `{"name":"t","word":"id","rules":{
		"b":{"type":"SEQ","members":[{"type":"STRING","value":"x"},{"type":"PREC_LEFT","value":-2,"content":{"type":"SYMBOL","name":"a"}}]},
		"a":{"type":"PREC","value":"named","content":{"type":"PATTERN","value":"[a-z]+","flags":"i"}},
		"id":{"type":"ALIAS","value":"q","named":true,"content":{"type":"BLANK"}}},
		"extras":[],"conflicts":[["a","b"]],"reserved":{"global":[{"type":"STRING","value":"if"}],"other":[]}}`
	g, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range g.Rules {
		names = append(names, r.Name)
	}
	if got := strings.Join(names, ","); got != "b,a,id" {
		t.Errorf("rule order %q", got)
	}
	if p := g.Rule("b").Members[1].Prec; p.IsName || p.Int != -2 {
		t.Errorf("prec %+v", p)
	}
	if p := g.Rule("a").Prec; !p.IsName || p.Name != "named" || g.Rule("a").Content.Flags != "i" {
		t.Errorf("named prec %+v", g.Rule("a"))
	}
	if !g.HasExtras || len(g.Extras) != 0 || g.Word != "id" || len(g.Reserved) != 2 || g.Reserved[1].Name != "other" {
		t.Errorf("top level %+v", g)
	}
}

func TestParseErrorsNamePath(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`{"rules":{}}`, "missing \"name\""},
		{`{"name":"x","rules":{"a":{"type":"NOPE"}}}`, "rules.a: unknown rule type"},
		{`{"name":"x","rules":{"a":{"type":"SEQ","members":[{"type":"REPEAT"}]}}}`, "rules.a.members[0]: REPEAT rule without"},
		{`{"name":"x","rules":{"a":{"type":"PREC_DYNAMIC","value":"s","content":{"type":"BLANK"}}}}`, "needs an integer \"value\""},
	} {
		_, err := Parse([]byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s) = %v, want %q", tc.src, err, tc.want)
		}
	}
}

package canonjson

import (
	"math"
	"strings"
	"testing"
)

func canon(t *testing.T, src string) string {
	t.Helper()
	v, err := Decode([]byte(src))
	if err != nil {
		t.Fatalf("Decode(%q): %v", src, err)
	}
	b, err := Encode(v)
	if err != nil {
		t.Fatalf("Encode(%q): %v", src, err)
	}
	return string(b)
}

// The expected strings are upstream Harn's canonical JSON for the same
// documents (serde_json with recursively sorted keys).
func TestCanonicalForm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"b": 1, "a": 2}`, `{"a":2,"b":1}`},
		{`{"z": {"y": 1, "x": {"b": 2, "a": 3}}, "a": null}`, `{"a":null,"z":{"x":{"a":3,"b":2},"y":1}}`},
		{`[3, 1, 2]`, `[3,1,2]`},
		{`[{"b": 1, "a": 2}, {"d": 4, "c": 3}]`, `[{"a":2,"b":1},{"c":3,"d":4}]`},
		{`{"": 1, " ": 2, "\u0001": 3, "é": 4, "\"q\"": 5, "a\\b": 6}`, "{\"\":1,\"\\u0001\":3,\" \":2,\"\\\"q\\\"\":5,\"a\\\\b\":6,\"é\":4}"},
		{`{"a": 1, "A": 2, "0": 3, "_": 4}`, `{"0":3,"A":2,"_":4,"a":1}`},
		{`{"n": [1.0, -0.0, 1.5]}`, `{"n":[1.0,-0.0,1.5]}`},
		{`9007199254740993`, `9007199254740993`},
		{`18446744073709551615`, `18446744073709551615`},
		{`-9223372036854775808`, `-9223372036854775808`},
		{`{"😀": 1, "\uffff": 2, "z": 3}`, "{\"z\":3,\"\uffff\":2,\"😀\":1}"},
		{`"<>&/\u2028\u007f\t\u001f"`, "\"<>&/\u2028\u007f\\t\\u001f\""},
		{`-0`, `0`},
		{`1e2`, `100.0`},
		{`[true, false, null, "x"]`, `[true,false,null,"x"]`},
		{`{}`, `{}`},
		{`[]`, `[]`},
	} {
		if got := canon(t, tc.in); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestFormatFloat(t *testing.T) {
	for f, want := range map[float64]string{
		0.5: "0.5", 1: "1.0", 0.1: "0.1", 100: "100.0", 1e15: "1000000000000000.0",
		1e16: "1e16", 1e17: "1e17", 1e20 * 10: "1e21", 1.5e17: "1.5e17",
		0.0001: "0.0001", 0.00001: "0.00001", 1e-6: "1e-6", 1e-7: "1e-7", 1.25e-7: "1.25e-7",
		123.456: "123.456", -2.5: "-2.5", 0.01: "0.01", 1.7976931348623157e308: "1.7976931348623157e308",
		5e-324: "5e-324", 12345678901234567: "1.2345678901234568e16", 1234567890123456: "1234567890123456.0", 0.3: "0.3",
	} {
		got, err := FormatFloat(f)
		if err != nil || got != want {
			t.Errorf("FormatFloat(%v) = %q, %v; want %q", f, got, err, want)
		}
	}
	if _, err := FormatFloat(math.NaN()); err == nil {
		t.Error("NaN formatted")
	}
	if _, err := Encode(math.Inf(1)); err == nil {
		t.Error("Inf encoded")
	}
}

func TestRustDebugFloat(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0.0", 0.5: "0.5", 1: "1.0", 0.01: "0.01", 0.8: "0.8", 100: "100.0",
		1e15: "1000000000000000.0", 1e16: "1e16", 1.5e16: "1.5e16", 0.0001: "0.0001",
		0.00001: "1e-5", 1.5e-5: "1.5e-5", -0.25: "-0.25",
	} {
		if got := RustDebugFloat(f); got != want {
			t.Errorf("RustDebugFloat(%v) = %q, want %q", f, got, want)
		}
	}
	if got := RustDebugFloat(math.Copysign(0, -1)); got != "-0.0" {
		t.Errorf("-0.0 = %q", got)
	}
}

func TestDecodeKeepsOrderAndTypes(t *testing.T) {
	v, err := Decode([]byte(`{"b": 1, "a": 1.0, "c": 18446744073709551615, "d": 1e400}`))
	if err == nil {
		t.Fatalf("1e400 decoded: %v", v)
	}
	v, err = Decode([]byte(`{"b": 1, "a": 1.0, "c": 18446744073709551615}`))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object)
	if strings.Join(o.Keys, ",") != "b,a,c" {
		t.Errorf("keys %v", o.Keys)
	}
	if _, ok := o.Values["b"].(int64); !ok {
		t.Errorf("b is %T", o.Values["b"])
	}
	if _, ok := o.Values["a"].(float64); !ok {
		t.Errorf("a is %T", o.Values["a"])
	}
	if _, ok := o.Values["c"].(uint64); !ok {
		t.Errorf("c is %T", o.Values["c"])
	}
}

func TestDecodeErrors(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2)
	for src, want := range map[string]string{
		`{"a": 1, "a": 2}`: `duplicate object key "a"`,
		`{"a": 1} x`:       "trailing data",
		`{"a": 1`:          "unexpected end",
		"\"\xff\"":         "invalid UTF-8",
		deep:               "nesting deeper",
		`NaN`:              "invalid character",
		``:                 "unexpected end",
	} {
		_, err := Decode([]byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%.20q) = %v, want %q", src, err, want)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":[1,2.5,{"x":null}],"a":"\u0000é"}`, `1e-7`, `[]`, `"x"`, `{"a":{"b":{"c":[true]}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data)
		if err != nil {
			return
		}
		once, err := Encode(v)
		if err != nil {
			t.Fatalf("encode decoded value: %v", err)
		}
		v2, err := Decode(once)
		if err != nil {
			t.Fatalf("canonical form %q does not decode: %v", once, err)
		}
		twice, err := Encode(v2)
		if err != nil || string(once) != string(twice) {
			t.Fatalf("not idempotent: %q then %q (%v)", once, twice, err)
		}
	})
}

package types

import (
	"math/rand/v2"
	"strings"
	"testing"
)

var (
	kindAnswered = NewRecord(Field{Name: "kind", Type: StringLit("answered")}, Field{Name: "receipt", Type: StringType}, Field{Name: "value", Type: IntType})
	kindRefused  = NewRecord(Field{Name: "kind", Type: StringLit("refused")}, Field{Name: "receipt", Type: StringType}, Field{Name: "reason", Type: StringType})
	outcome      = NewUnion(kindAnswered, kindRefused)
)

func TestNewUnionNormalises(t *testing.T) {
	named := &Alias{Name: "Level", Target: NewUnion(StringLit("low"), StringLit("high"))}
	for _, tc := range []struct {
		name string
		in   []Type
		want string
	}{
		{"empty is never", nil, "never"},
		{"single member", []Type{IntType}, "int"},
		{"flattens and dedupes", []Type{IntType, NewUnion(StringType, IntType), NilType}, "int | string | nil"},
		{"drops never", []Type{NeverType, BoolType}, "bool"},
		{"any absorbs", []Type{IntType, AnyType}, "any"},
		{"literal beside its base", []Type{StringLit("a"), StringType, IntLit(1)}, "string | 1"},
		{"literals stay", []Type{StringLit("a"), StringLit("b"), StringLit("a")}, `"a" | "b"`},
		{"alias of a union stays named", []Type{named, NilType}, "Level | nil"},
		{"identical records dedupe regardless of field order", []Type{
			NewRecord(Field{Name: "a", Type: IntType}, Field{Name: "b", Type: BoolType}),
			NewRecord(Field{Name: "b", Type: BoolType}, Field{Name: "a", Type: IntType}),
		}, "{a: int, b: bool}"},
	} {
		if got := NewUnion(tc.in...).String(); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

func TestAssignable(t *testing.T) {
	shape := NewRecord(Field{Name: "id", Type: IntType}, Field{Name: "note", Type: StringType, Optional: true})
	for _, tc := range []struct {
		name string
		v, t Type
		want bool
	}{
		{"any to int", AnyType, IntType, true},
		{"int to any", IntType, AnyType, true},
		{"int to unknown", IntType, UnknownType, true},
		{"unknown to int needs narrowing", UnknownType, IntType, false},
		{"int widens to float", IntType, FloatType, true},
		{"float does not narrow to int", FloatType, IntType, false},
		{"literal widens", StringLit("x"), StringType, true},
		{"string into literal union is not certain wrong", StringType, NewUnion(StringLit("a"), StringLit("b")), true},
		{"int into string literal union", IntType, NewUnion(StringLit("a"), StringLit("b")), false},
		{"wrong literal", StringLit("c"), NewUnion(StringLit("a"), StringLit("b")), false},
		{"union source member by member", NewUnion(IntType, NilType), IntType, false},
		{"optional into optional", NewUnion(IntType, NilType), Optional(FloatType), true},
		{"width subtyping", NewRecord(Field{Name: "id", Type: IntType}, Field{Name: "x", Type: BoolType}), shape, true},
		{"missing required field", NewRecord(Field{Name: "note", Type: StringType}), shape, false},
		{"optional field may be absent", NewRecord(Field{Name: "id", Type: IntType}), shape, true},
		{"shape into dict<string, V>", NewRecord(Field{Name: "a", Type: IntType}), &Dict{Key: StringType, Value: FloatType}, true},
		{"shape into dict with wrong values", NewRecord(Field{Name: "a", Type: StringType}), &Dict{Key: StringType, Value: IntType}, false},
		{"list covariance", &List{Elem: IntType}, &List{Elem: FloatType}, true},
		{"list of wrong elements", &List{Elem: StringType}, &List{Elem: IntType}, false},
		{"tuple into list", &Tuple{Elems: []Type{IntType, IntType}}, &List{Elem: IntType}, true},
		{"capability by name", &Capability{Name: "HarnessLlm"}, &Capability{Name: "HarnessLlm"}, true},
		{"different capability", &Capability{Name: "Harness"}, &Capability{Name: "HarnessLlm"}, false},
		{"never into anything", NeverType, StringType, true},
		{"alias resolves", &Alias{Name: "Id", Target: IntType}, FloatType, true},
	} {
		if got := Assignable(tc.v, tc.t); got != tc.want {
			t.Errorf("%s: Assignable(%s, %s) = %v", tc.name, tc.v, tc.t, got)
		}
	}
}

func TestFieldOfAndNarrowing(t *testing.T) {
	if ft, p := FieldOf(outcome, "receipt", false); p != FieldAll || ft.String() != "string" {
		t.Errorf("common field: %s %v", ft, p)
	}
	if ft, p := FieldOf(outcome, "value", false); p != FieldSome || ft.String() != "int" {
		t.Errorf("variant field: %s %v", ft, p)
	}
	if _, p := FieldOf(outcome, "nope", false); p != FieldAbsent {
		t.Errorf("absent field: %v", p)
	}
	if _, p := FieldOf(Optional(outcome), "kind", false); p != FieldSome {
		t.Errorf("nil member lacks fields: %v", p)
	}
	if _, p := FieldOf(Optional(outcome), "kind", true); p != FieldAll {
		t.Errorf("optional chaining ignores nil: %v", p)
	}
	if _, p := FieldOf(AnyType, "x", false); p != FieldUnknown {
		t.Errorf("gradual: %v", p)
	}
	if _, p := FieldOf(&Record{Open: true}, "x", false); p != FieldUnknown {
		t.Errorf("open record: %v", p)
	}
	if got := Narrow(outcome, "kind", StringLit("answered")); !Identical(got, kindAnswered) {
		t.Errorf("Narrow = %s", got)
	}
	if got := Exclude(outcome, "kind", StringLit("answered")); !Identical(got, kindRefused) {
		t.Errorf("Exclude = %s", got)
	}
	if got := Narrow(outcome, "kind", StringLit("verdict")); !IsBasic(got, Never) {
		t.Errorf("Narrow to nothing = %s", got)
	}
	tags, ok := TagValues(Optional(outcome), "kind")
	if !ok || len(tags) != 2 || tags[0].Value != "answered" || tags[1].Value != "refused" {
		t.Errorf("TagValues = %v %v", tags, ok)
	}
	if _, ok := TagValues(NewUnion(kindAnswered, NewRecord(Field{Name: "kind", Type: StringType})), "kind"); ok {
		t.Errorf("a non-literal tag is not a tagged union")
	}
	if got := StripNil(Optional(outcome)); !Identical(got, outcome) {
		t.Errorf("StripNil = %s", got)
	}
}

func TestCheckSerializable(t *testing.T) {
	rec := &Alias{Name: "Tree"}
	rec.Target = NewRecord(Field{Name: "children", Type: &List{Elem: rec}})
	for _, tc := range []struct {
		name string
		t    Type
		want string // "" = serializable; else a substring of the problem
	}{
		{"scalars and literals", NewRecord(Field{Name: "a", Type: IntType}, Field{Name: "b", Type: NewUnion(StringLit("x"), NilType)}), ""},
		{"list and dict<string, V>", NewRecord(Field{Name: "xs", Type: &List{Elem: &Dict{Key: StringType, Value: FloatType}}}), ""},
		{"tuple", &Tuple{Elems: []Type{IntType, BoolType}}, ""},
		{"any", NewRecord(Field{Name: "meta", Type: AnyType}), "meta: any"},
		{"unknown", UnknownType, "unknown"},
		{"bare dict", NewRecord(Field{Name: "m", Type: &Dict{Bare: true}}), "m: bare dict"},
		{"bare list", &List{Bare: true}, "bare list"},
		{"open record", &Record{Open: true}, "open record"},
		{"function", NewRecord(Field{Name: "f", Type: &Func{Result: IntType}}), "f: a function"},
		{"capability", &Capability{Name: "Harness"}, "capability handle Harness"},
		{"recursive", rec, "children[]: recursive type Tree"},
		{"int keys", &Dict{Key: IntType, Value: IntType}, "dict keys must be string"},
	} {
		p, ok := CheckSerializable(tc.t)
		if tc.want == "" {
			if !ok {
				t.Errorf("%s: refused: %s", tc.name, p)
			}
			continue
		}
		if ok || !strings.Contains(p.String(), tc.want) {
			t.Errorf("%s: got (%v, %q), want a problem containing %q", tc.name, ok, p, tc.want)
		}
	}
}

func TestCheckFinite(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    Type
		want string
	}{
		{"ints and literals", NewRecord(Field{Name: "id", Type: IntType}, Field{Name: "mode", Type: NewUnion(StringLit("a"), StringLit("b"))}), ""},
		{"nested finite record", NewRecord(Field{Name: "p", Type: NewRecord(Field{Name: "x", Type: FloatType})}), ""},
		{"string", NewRecord(Field{Name: "id", Type: IntType}, Field{Name: "text", Type: StringType}), "text: string"},
		{"list", NewRecord(Field{Name: "notes", Type: &List{Elem: StringType}}), "notes: list<string>"},
		{"dict", &Dict{Key: StringType, Value: IntType}, "dict<string, int>"},
		{"any", AnyType, "any"},
		{"open record", &Record{Open: true}, "open record"},
		{"alias expanded", &Alias{Name: "Notes", Target: &List{Elem: IntType}}, "list<int>"},
	} {
		p, ok := CheckFinite(tc.t)
		if tc.want == "" {
			if !ok {
				t.Errorf("%s: refused: %s", tc.name, p)
			}
			continue
		}
		if ok || !strings.Contains(p.String(), tc.want) {
			t.Errorf("%s: got (%v, %q), want %q", tc.name, ok, p, tc.want)
		}
	}
}

func TestCanonical(t *testing.T) {
	a := NewRecord(Field{Name: "b", Type: NewUnion(StringLit("y"), StringLit("x"))}, Field{Name: "a", Type: &List{Elem: IntType}, Optional: true})
	b := NewRecord(Field{Name: "a", Type: &List{Elem: IntType}, Optional: true}, Field{Name: "b", Type: NewUnion(StringLit("x"), StringLit("y"))})
	if Canonical(a) != Canonical(b) || CanonicalSHA256(a) != CanonicalSHA256(b) {
		t.Errorf("field and member order must not matter: %s vs %s", Canonical(a), Canonical(b))
	}
	if want := `{a?:list<int>,b:"x"|"y"}`; Canonical(a) != want {
		t.Errorf("Canonical = %s, want %s", Canonical(a), want)
	}
	xy := &Alias{Name: "XY", Target: NewUnion(StringLit("x"), StringLit("y"))}
	if got := Canonical(NewUnion(xy, NilType)); got != `"x"|"y"|nil` {
		t.Errorf("aliases of unions flatten: %s", got)
	}
	c := NewRecord(Field{Name: "a", Type: &List{Elem: FloatType}, Optional: true}, Field{Name: "b", Type: NewUnion(StringLit("x"), StringLit("y"))})
	if Canonical(a) == Canonical(c) {
		t.Errorf("field types must matter")
	}
	rec := &Alias{Name: "T"}
	rec.Target = NewRecord(Field{Name: "next", Type: Optional(rec)})
	if got := Canonical(rec); got != "{next:nil|rec:T}" {
		t.Errorf("recursive alias: %s", got)
	}
	if got := CanonicalSHA256(StringType); len(got) != 64 {
		t.Errorf("digest %q", got)
	}
}

// A union passed alone to NewUnion keeps its identity: the checker traces
// label unions back to their question by pointer.
func TestNewUnionKeepsANormalisedUnion(t *testing.T) {
	u := NewUnion(StringLit("a"), StringLit("b"))
	if got := NewUnion(u); got != u {
		t.Errorf("NewUnion(u) built a new union %v", got)
	}
	rec := NewRecord(Field{Name: "choice", Type: u})
	if ft, p := FieldOf(rec, "choice", false); ft != u || p != FieldAll {
		t.Errorf("FieldOf lost the union: %v %v", ft, p)
	}
}

// TestNewUnionSmallAgreesWithLarge: the stack-bound normalisation of
// small unions gives what the general one gives, member for member
// (identity included), on random mixes of basics, literals of every kind,
// aliases (of a basic, a literal, a union, never and any), records,
// lists, unions, never and any.
func TestNewUnionSmallAgreesWithLarge(t *testing.T) {
	// A union past the small size keeps every member, the ones after the
	// argument that crossed it too.
	var many []Type
	for i := range 3 * smallUnion {
		many = append(many, IntLit(int64(i)))
	}
	if u := NewUnion(many...); len(Members(u)) != len(many) {
		t.Fatalf("a union of %d literals has %d members", len(many), len(Members(u)))
	}
	rec := NewRecord(Field{Name: "x", Type: IntType})
	pool := []Type{
		StringType, IntType, FloatType, BoolType, NilType, NeverType, AnyType, UnknownType,
		StringLit("a"), StringLit("b"), StringLit(""), IntLit(0), IntLit(1), IntLit(-7),
		&Literal{Value: true}, &Literal{Value: false},
		&Alias{Name: "S", Target: StringType}, &Alias{Name: "A", Target: StringLit("a")},
		&Alias{Name: "AB", Target: NewUnion(StringLit("a"), StringLit("b"))},
		&Alias{Name: "N", Target: NeverType}, &Alias{Name: "Y", Target: AnyType},
		rec, NewRecord(Field{Name: "x", Type: IntType}), &List{Elem: StringType}, &List{Elem: StringType},
		NewUnion(IntLit(1), StringLit("a")), NewUnion(rec, NilType),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		ts := make([]Type, 1+r.IntN(6))
		for j := range ts {
			ts[j] = pool[r.IntN(len(pool))]
		}
		var flat []Type
		for _, t := range ts {
			flat = appendFlat(flat, t)
		}
		if len(flat) > smallUnion {
			continue
		}
		small, large := newUnionSmall(flat), newUnionLarge(flat)
		sm, lm := Members(small), Members(large)
		same := len(sm) == len(lm)
		for k := 0; same && k < len(sm); k++ {
			same = sm[k] == lm[k]
		}
		if _, isUnion := small.(*Union); !isUnion && small != large {
			same = false
		}
		if !same {
			t.Fatalf("case %d, %v: small %v, large %v", i, ts, small, large)
		}
	}
}

func TestWiden(t *testing.T) {
	for _, tc := range []struct {
		in   Type
		want string
	}{
		{StringLit("hello"), "string"},
		{IntLit(3), "int"},
		{NewUnion(StringLit("a"), StringLit("b"), NilType), "string | nil"},
		{NewUnion(StringLit("a"), IntLit(1)), "string | int"},
		{IntType, "int"},
		{kindAnswered, kindAnswered.String()}, // fields keep their literals
	} {
		if got := Describe(Widen(tc.in)); got != tc.want {
			t.Errorf("Widen(%s) = %s, want %s", Describe(tc.in), got, tc.want)
		}
	}
}

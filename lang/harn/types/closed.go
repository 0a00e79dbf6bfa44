package types

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Problem explains why a type fails a closure check: what offends, and
// where inside the type (a path such as "notes[]" or "meta.tags").
type Problem struct {
	Path   string
	Reason string
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Reason
	}
	return p.Path + ": " + p.Reason
}

// CheckSerializable reports whether t is a closed serializable type, the
// only kind an evaluation input or policy may have: string, bool, int,
// float, nil, string/int literal types, closed shapes whose fields are all
// allowed, list<T>, tuples, non-empty unions and dict<string, V>, each
// recursively. any, unknown, bare dict/list, functions, capability
// handles, open records and recursive types are refused. It returns the
// first problem found, depth first.
func CheckSerializable(t Type) (Problem, bool) {
	return serializable(t, "", map[*Alias]bool{})
}

func serializable(t Type, path string, visiting map[*Alias]bool) (Problem, bool) {
	if a, ok := t.(*Alias); ok {
		if visiting[a] {
			return Problem{path, fmt.Sprintf("recursive type %s has no finite serialised form", a.Name)}, false
		}
		if a.Target == nil {
			return Problem{path, fmt.Sprintf("type %s cannot be resolved", a.Name)}, false
		}
		visiting[a] = true
		defer delete(visiting, a)
		return serializable(a.Target, path, visiting)
	}
	switch t := t.(type) {
	case *Basic:
		switch t.Kind {
		case String, Bool, Int, Float, Nil:
			return Problem{}, true
		case Any:
			return Problem{path, "any is not a closed type; validate the data into a declared shape first"}, false
		case Unknown:
			return Problem{path, "unknown is not a closed type; narrow or validate it first"}, false
		case Never:
			return Problem{path, "never has no values"}, false
		}
		return Problem{path, t.String() + " is not serializable"}, false
	case *Literal:
		return Problem{}, true
	case *List:
		if t.Bare {
			return Problem{path, "bare list has no element type; write list<T>"}, false
		}
		return serializable(t.Elem, path+"[]", visiting)
	case *Tuple:
		for i, e := range t.Elems {
			if p, ok := serializable(e, path+"["+strconv.Itoa(i)+"]", visiting); !ok {
				return p, false
			}
		}
		return Problem{}, true
	case *Dict:
		if t.Bare {
			return Problem{path, "bare dict has no key and value types; write a shape or dict<string, V>"}, false
		}
		if !IsBasic(t.Key, String) {
			return Problem{path, "dict keys must be string to serialise, not " + t.Key.String()}, false
		}
		return serializable(t.Value, path+"[*]", visiting)
	case *Record:
		if t.Open {
			return Problem{path, "open record: its fields are not all known"}, false
		}
		for _, f := range t.Fields {
			if p, ok := serializable(f.Type, join(path, f.Name), visiting); !ok {
				return p, false
			}
		}
		return Problem{}, true
	case *Union:
		for _, m := range t.Members {
			if p, ok := serializable(m, path, visiting); !ok {
				return p, false
			}
		}
		return Problem{}, true
	case *Func:
		return Problem{path, "a function cannot be serialised"}, false
	case *Capability:
		return Problem{path, fmt.Sprintf("capability handle %s cannot be passed to a model", t.Name)}, false
	}
	return Problem{path, "type cannot be serialised"}, false
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// CheckFinite reports whether every value of t has a bounded encoded size,
// as native decision routes require (HARN-LNT-079): int, bool, float, nil,
// literal types and records, tuples and unions built only from those.
// string, list, dict, any, unknown and open records are unbounded. It
// returns the first unbounded part.
func CheckFinite(t Type) (Problem, bool) {
	return finite(t, "", map[*Alias]bool{})
}

func finite(t Type, path string, visiting map[*Alias]bool) (Problem, bool) {
	if a, ok := t.(*Alias); ok {
		if visiting[a] || a.Target == nil {
			return Problem{path, fmt.Sprintf("%s has no size bound", a.Name)}, false
		}
		visiting[a] = true
		defer delete(visiting, a)
		return finite(a.Target, path, visiting)
	}
	switch t := t.(type) {
	case *Basic:
		switch t.Kind {
		case Int, Bool, Float, Nil, Never:
			return Problem{}, true
		}
		return Problem{path, t.String() + " has no size bound"}, false
	case *Literal:
		return Problem{}, true
	case *List:
		return Problem{path, t.String() + " has no length bound"}, false
	case *Dict:
		return Problem{path, t.String() + " has no size bound"}, false
	case *Tuple:
		for i, e := range t.Elems {
			if p, ok := finite(e, path+"["+strconv.Itoa(i)+"]", visiting); !ok {
				return p, false
			}
		}
		return Problem{}, true
	case *Record:
		if t.Open {
			return Problem{path, "open record has no size bound"}, false
		}
		for _, f := range t.Fields {
			if p, ok := finite(f.Type, join(path, f.Name), visiting); !ok {
				return p, false
			}
		}
		return Problem{}, true
	case *Union:
		for _, m := range t.Members {
			if p, ok := finite(m, path, visiting); !ok {
				return p, false
			}
		}
		return Problem{}, true
	}
	return Problem{path, t.String() + " has no size bound"}, false
}

// Canonical returns the canonical serialisation of t that the site
// manifest digests (input_type_sha256). The byte layout, which others may
// recompute:
//
//   - aliases are expanded (a recursive reference prints as "rec:" and the
//     alias name);
//   - basic types print their keyword: any unknown never nil bool int
//     float string bytes;
//   - a string literal prints as a JSON-style quoted string (Go strconv
//     quoting), an int literal in decimal, a bool literal as true/false;
//   - list<T> prints "list<" T ">", a bare list "list"; dict likewise with
//     "dict<" K "," V ">" (no spaces);
//   - tuple<A,B> prints "tuple<" members joined by "," ">";
//   - a record prints "{" fields sorted by name, each name, "?" if
//     optional, ":" and the type, joined by ",", then ",..." if open, "}";
//   - a union prints its members' canonical forms sorted bytewise and
//     joined by "|" (duplicates removed);
//   - fn(A,B)->R prints "fn(" params joined by "," ")->" result;
//   - a capability prints "cap:" and its name.
//
// The result is UTF-8 text with no whitespace outside string literals.
func Canonical(t Type) string {
	var b strings.Builder
	canonical(&b, t, map[*Alias]bool{})
	return b.String()
}

// CanonicalSHA256 returns the lower-case hex SHA-256 of Canonical(t).
func CanonicalSHA256(t Type) string {
	sum := sha256.Sum256([]byte(Canonical(t)))
	return hex.EncodeToString(sum[:])
}

func canonical(b *strings.Builder, t Type, visiting map[*Alias]bool) {
	switch t := t.(type) {
	case *Alias:
		if visiting[t] || t.Target == nil {
			b.WriteString("rec:" + t.Name)
			return
		}
		visiting[t] = true
		canonical(b, t.Target, visiting)
		delete(visiting, t)
	case *Basic:
		b.WriteString(t.String())
	case *Literal:
		b.WriteString(t.String())
	case *List:
		if t.Bare {
			b.WriteString("list")
			return
		}
		b.WriteString("list<")
		canonical(b, t.Elem, visiting)
		b.WriteString(">")
	case *Dict:
		if t.Bare {
			b.WriteString("dict")
			return
		}
		b.WriteString("dict<")
		canonical(b, t.Key, visiting)
		b.WriteString(",")
		canonical(b, t.Value, visiting)
		b.WriteString(">")
	case *Tuple:
		b.WriteString("tuple<")
		for i, e := range t.Elems {
			if i > 0 {
				b.WriteString(",")
			}
			canonical(b, e, visiting)
		}
		b.WriteString(">")
	case *Record:
		fields := slices.Clone(t.Fields)
		slices.SortFunc(fields, fieldOrder)
		b.WriteString("{")
		for i, f := range fields {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(f.Name)
			if f.Optional {
				b.WriteString("?")
			}
			b.WriteString(":")
			canonical(b, f.Type, visiting)
		}
		if t.Open {
			b.WriteString(",...")
		}
		b.WriteString("}")
	case *Union:
		// Members that are aliases of unions are flattened, so a union
		// prints the same whether or not part of it was named.
		var parts []string
		var collect func(ts []Type)
		collect = func(ts []Type) {
			for _, m := range ts {
				if a, ok := m.(*Alias); ok && !visiting[a] && a.Target != nil {
					if u, ok := Unalias(a).(*Union); ok {
						visiting[a] = true
						collect(u.Members)
						delete(visiting, a)
						continue
					}
				}
				var mb strings.Builder
				canonical(&mb, m, visiting)
				parts = append(parts, mb.String())
			}
		}
		collect(t.Members)
		slices.Sort(parts)
		parts = slices.Compact(parts)
		b.WriteString(strings.Join(parts, "|"))
	case *Func:
		b.WriteString("fn(")
		for i, p := range t.Params {
			if i > 0 {
				b.WriteString(",")
			}
			canonical(b, p.Type, visiting)
		}
		b.WriteString(")->")
		canonical(b, t.Result, visiting)
	case *Capability:
		b.WriteString("cap:" + t.Name)
	}
}

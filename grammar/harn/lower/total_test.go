package lower_test

import (
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/generate/difftest"
	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/internal/harntest"
	"github.com/harnlang/harn-check/grammar/harn/lower"
)

var caseRe = regexp.MustCompile(`(?ms)^={3,}\n(.*?)\n={3,}\n(.*?)\n-{3,}\n`)

// samples returns the corpus inputs (without the error corpus) and the
// example programs.
func samples(t *testing.T) (names, sources []string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("..", "test", "corpus", "*.txt"))
	for _, f := range files {
		if strings.HasSuffix(f, "errors.txt") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range caseRe.FindAllStringSubmatch(string(data), -1) {
			names = append(names, filepath.Base(f)+"/"+m[1])
			sources = append(sources, strings.Trim(m[2], "\n")+"\n")
		}
	}
	examples, _ := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*", "*.harn"))
	for _, f := range examples {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, f)
		sources = append(sources, string(data))
	}
	if len(sources) < 50 {
		t.Fatalf("found only %d samples", len(sources))
	}
	return names, sources
}

// checkTree walks a lowered tree: every node's span lies within the file,
// and, for a tree without syntax errors (errorsAllowed false), within its
// parent's span, with no *ast.Error anywhere. Recovery may put a zero-width
// MISSING node just past its parent, so broken trees are only checked
// against the file.
func checkTree(t *testing.T, name string, f *ast.File, errorsAllowed bool) {
	t.Helper()
	var walk func(v reflect.Value, parent ast.Span, path string)
	walk = func(v reflect.Value, parent ast.Span, path string) {
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if v.IsNil() {
				return
			}
			if n, ok := v.Interface().(ast.Node); ok {
				if _, isErr := n.(*ast.Error); isErr && !errorsAllowed {
					t.Errorf("%s: Error node at %s %v", name, path, n.Pos())
				}
				sp := n.Pos()
				if errorsAllowed {
					parent = f.Span
				}
				if sp.Start > sp.End || sp.Start < parent.Start || sp.End > parent.End {
					t.Errorf("%s: %s span %v outside parent %v", name, path, sp, parent)
				}
				parent = sp
			}
			walk(v.Elem(), parent, path)
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i), parent, path+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), parent, path)
			}
		}
	}
	walk(reflect.ValueOf(f), f.Span, "File")
}

// TestLowerSamples lowers every corpus case and example: no Error nodes,
// spans nested, and every statement of the tree accounted for.
func TestLowerSamples(t *testing.T) {
	names, sources := samples(t)
	trees := parseAll(t, sources)
	for i, tree := range trees {
		f := lower.File([]byte(sources[i]), tree)
		if len(f.Errors) != 0 {
			t.Errorf("%s: tree has syntax errors %v", names[i], f.Errors)
			continue
		}
		checkTree(t, names[i], f, false)
		if len(f.Items) == 0 && strings.TrimSpace(sources[i]) != "" && !strings.HasPrefix(strings.TrimSpace(sources[i]), "//") {
			t.Errorf("%s: no items lowered", names[i])
		}
	}
}

// TestLowerBrokenInputs lowers mutated and truncated samples: lowering must
// not panic, spans stay nested, and a tree with ERROR or MISSING nodes is
// reported through File.Errors.
func TestLowerBrokenInputs(t *testing.T) {
	_, sources := samples(t)
	rng := rand.New(rand.NewSource(11))
	var broken []string
	for _, s := range sources {
		broken = append(broken, string(difftest.Mutate(rng, []byte(s))))
		if len(s) > 2 {
			broken = append(broken, s[:rng.Intn(len(s)-1)+1])
		}
	}
	trees := parseAll(t, broken)
	withErrors := 0
	for i, tree := range trees {
		f := lower.File([]byte(broken[i]), tree)
		checkTree(t, "broken sample", f, true)
		if tree.HasError() != (len(f.Errors) > 0) {
			t.Errorf("tree error flag %v but File.Errors = %v for %q", tree.HasError(), f.Errors, broken[i])
		}
		if len(f.Errors) > 0 {
			withErrors++
		}
	}
	if withErrors == 0 {
		t.Error("no broken input produced a syntax error; the mutations are not exercising recovery")
	}
}

// kinds is the vocabulary synthetic trees draw from: every kind lowering
// switches on, plus ERROR.
var kinds = []string{
	"source_file", "ERROR", "identifier", "integer", "float", "duration", "true", "false", "nil",
	"string", "multiline_string", "raw_string", "string_content", "escape_sequence", "interpolation",
	"list", "dict", "dict_entry", "computed_key", "spread_element", "closure", "closure_parameters",
	"function_expression", "struct_expression", "call_expression", "arguments", "member_expression",
	"binary_expression", "unary_expression", "if_expression", "match_expression", "match_body",
	"match_arm", "try_expression", "catch_clause", "parallel_expression", "block", "variable_declaration",
	"function_declaration", "parameters", "parameter", "import_declaration", "import_path",
	"attributed_declaration", "attribute", "struct_declaration", "enum_declaration", "enum_variant",
	"union_type", "generic_type", "shape_type", "shape_field", "literal_type", "negative_literal",
	"or_pattern", "dict_pattern", "list_pattern", "variant_pattern", "select_statement", "tool_declaration",
	"approval_expression", "approval_arguments", "named_argument", "block_statement", "throws_clause",
}

var fieldNames = []string{"", "", "name", "value", "left", "right", "body", "pattern", "type", "key",
	"operator", "function", "arguments", "parameters", "declaration", "attribute", "condition", "names", "path",
	"primitive", "throws"}

// synth builds an arbitrary tree from fuzz bytes.
func synth(data []byte, src int) *harntest.Tree {
	pos := 0
	next := func() int {
		if pos >= len(data) {
			return 0
		}
		b := int(data[pos])
		pos++
		return b
	}
	var build func(depth int) *harntest.Tree
	build = func(depth int) *harntest.Tree {
		b := next()
		n := &harntest.Tree{K: kinds[b%len(kinds)], N: b%7 != 0, E: b%11 == 0, M: b%13 == 0, X: b%17 == 0}
		n.S = next() % (src + 1)
		n.T = n.S + next()%(src+1-n.S)
		if depth < 6 {
			for c := next() % 4; c > 0; c-- {
				n.F = append(n.F, fieldNames[next()%len(fieldNames)])
				n.C = append(n.C, build(depth+1))
			}
		}
		return n
	}
	return build(0)
}

// FuzzLowerSyntheticTree feeds lowering arbitrary trees (any kinds, fields,
// flags and spans, including spans outside the source): it must never panic.
func FuzzLowerSyntheticTree(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7}, "let x = 1")
	f.Add([]byte{9, 0, 3, 3, 12, 40, 7, 1, 2, 200, 100}, "fn f() { }")
	f.Fuzz(func(t *testing.T, data []byte, src string) {
		tree := synth(data, len(src)+2)
		file := lower.File([]byte(src), tree)
		if file == nil {
			t.Fatal("nil file")
		}
		_ = ast.Dump(file)
	})
}

func TestSyntheticTreesSeeded(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 2000; i++ {
		data := make([]byte, rng.Intn(200))
		rng.Read(data)
		src := strings.Repeat("x", rng.Intn(40))
		f := lower.File([]byte(src), synth(data, len(src)+2))
		for _, e := range f.Errors {
			if e.Span.End > len(src) || e.Span.Start > e.Span.End {
				t.Fatalf("error span %v outside source of %d bytes", e.Span, len(src))
			}
		}
	}
}

package lower_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/harnlang/harn-check/grammar/harn/ast"
	"github.com/harnlang/harn-check/grammar/harn/internal/harntest"
	"github.com/harnlang/harn-check/grammar/harn/lower"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current lowering")

// goldenCases are small programs, one per construct group, whose lowered
// trees are pinned in testdata/<name>.golden.
var goldenCases = []struct{ name, src string }{
	{"imports", `import "std/predicate"
import {boolean, choice} from "std/predicate"
pub import "./helpers"
import pkg::sub::{x, y}
`},
	{"functions", `@test
pub gen fn pick<T, in U>(a: T, b: int = 1, ...rest) -> list<T> throws Err where T: A + B {
  return [a]
}
let f = fn(x) { return x }
let c = { x, y: int -> x + y }
`},
	{"types", `type V = "pass" | "fail" | nil
type S<T> = {name: string, "quoted"?: T}
type F = fn(int, [string]) -> (A & B)?
type N = 0 | -1
`},
	{"declarations", `struct P { x: int, y?: float }
enum Shape { Circle(float), Rect(w: float, h: float), Empty }
interface I { type K = string
  fn get(self) -> K }
impl P { fn norm(self) { return self.x } }
pub tool t(q: string) -> string {
  description "finds"
  return q
}
skill s {
  model "m"
}
eval_pack E "e.v1" {
  threshold: 0.5
  summarize { log(1) }
  log(2)
}
pipeline main(task) extends base {
  override step(x) { return x }
}
`},
	{"statements", `let {a, b: c, d = 1, ...r} = m
var [x, _, z = 0, ...t] = xs
const n: int = 3
x += 1
for (k, v) in m { continue }
while x < 3 { break }
guard x != nil else { return }
require x > 0, "pos"
defer { f() }
mutex { g() }
select {
  v from ch { h(v) }
  timeout 1s { }
  default { }
}
yield
emit 1
throw "x"
`},
	{"expressions", `a ?? b * c ** d
x not in ys
!ok || -n < 0
c ? a : b
1 to 5 exclusive
"a b" |> split(_, " ")
obj?.m(...xs)?.[0]
xs[1:]
map<int>(f)?
try* g()
P { x: 1 }
(a)
parallel settle xs with {n: 2} { x -> x }
let r = try { f() } catch (e: string) { log(e) } finally { done() }
retry 2 { f() }
deadline 5s { f() }
spawn { f() }
if a { } else if b { } else { }
`},
	{"match", `match v {
  "a" | "b" -> { }
  n if n > 3 -> { }
  -1 -> { }
  {status: "ok", data: d} -> { }
  [1, x] -> { }
  Shape.Circle(r) -> { }
  Ok(v) -> { }
  _ -> { }
}
`},
	{"literals", `let s = "a\tb ${x} $y"
let m = """
    line ${n}
      indented \"q\"
  """
let r = r#"raw "q""#
let d = {name: 1, "k": 2, [e]: 3, ...o, true: 4}
let l = [1, 2.5, 30s, true, false, nil]
// comment
/* block */
`},
	{"newer", `fn f() -> int throws A | B { return 1 }
let g = fn() throws E { }
tool t() throws E { description "d" }
let ok = request_approval("deploy", reviewers: ["a"], ...more)
let v = obj.m<int>(1)
let w = xs
  /* c */
  .first
block {
  let x = 2w
}
`},
	{"errors", `fn f() {
  let = 3
}
let y = [1, 2,, 3]
`},
}

func TestGolden(t *testing.T) {
	var sources []string
	for _, c := range goldenCases {
		sources = append(sources, c.src)
	}
	trees := parseAll(t, sources)
	for i, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			got := ast.Dump(lower.File([]byte(c.src), trees[i]))
			path := filepath.Join("testdata", c.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if got != string(want) {
				t.Errorf("lowering of %s differs from %s:\n%s", c.name, path, diffLines(string(want), got))
			}
		})
	}
}

// diffLines shows the first differing line of two texts with context.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return "(no difference)"
}

// parseAll parses the sources with the generated parser.
func parseAll(t *testing.T, sources []string) []*harntest.Tree {
	t.Helper()
	trees, err := harntest.Parse(sources)
	if err != nil {
		t.Fatal(err)
	}
	return trees
}

// TestCorpusGolden lowers every case of the grammar corpus, one golden file
// per corpus topic (testdata/corpus/<topic>.golden), so that every construct
// the corpus pins as a tree is also pinned as a typed syntax tree.
func TestCorpusGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "test", "corpus", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no corpus files")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var titles, sources []string
		for _, m := range caseRe.FindAllStringSubmatch(string(data), -1) {
			titles = append(titles, m[1])
			sources = append(sources, strings.Trim(m[2], "\n")+"\n")
		}
		trees := parseAll(t, sources)
		var b strings.Builder
		for i := range trees {
			fmt.Fprintf(&b, "=== %s\n%s\n", titles[i], ast.Dump(lower.File([]byte(sources[i]), trees[i])))
		}
		topic := strings.TrimSuffix(filepath.Base(f), ".txt")
		path := filepath.Join("testdata", "corpus", topic+".golden")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create)", err)
		}
		if b.String() != string(want) {
			t.Errorf("lowering of corpus %s differs from %s:\n%s", topic, path, diffLines(string(want), b.String()))
		}
	}
}

package naming

import (
	_ "embed"
	"strings"

	"github.com/harnlang/harn-check/checker/harn/analysis"
	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/grammar/harn/ast"
)

//go:embed doc.go
var doc string

// NamingConvention is the naming-convention rule.
var NamingConvention = &analysis.Rule{
	Name:  "naming-convention",
	Doc:   analysis.ExtractDoc(doc, "naming-convention"),
	Codes: []string{"HARN-LNT-003"},
	Run:   run,
}

func run(p *analysis.Pass) {
	ast.Inspect(p.File, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			function(p, "function", x.Name)
		case *ast.ToolDecl:
			function(p, "tool", x.Name)
		case *ast.StructDecl:
			typeName(p, "struct", x.Name)
		case *ast.EnumDecl:
			typeName(p, "enum", x.Name)
		case *ast.InterfaceDecl:
			typeName(p, "interface", x.Name)
		case *ast.TypeAlias:
			typeName(p, "type", x.Name)
		}
		return true
	})
}

func function(p *analysis.Pass, kind string, id *ast.Ident) {
	if id == nil || id.Name == "" || SnakeCase(id.Name) {
		return
	}
	d := p.Diag(diagnostics.SourceLint, "HARN-LNT-003", id.Span, "%s `%s` is not snake_case", kind, id.Name)
	d.Help = "rename it to `" + ToSnake(id.Name) + "`"
	p.Report(d)
}

func typeName(p *analysis.Pass, kind string, id *ast.Ident) {
	if id == nil || id.Name == "" || PascalCase(id.Name) {
		return
	}
	d := p.Diag(diagnostics.SourceLint, "HARN-LNT-003", id.Span, "%s `%s` is not PascalCase", kind, id.Name)
	d.Help = "rename it to `" + ToPascal(id.Name) + "`"
	p.Report(d)
}

// SnakeCase reports whether name is lower-case ASCII letters, digits and
// underscores, starting with a letter or an underscore.
func SnakeCase(name string) bool {
	if name == "" || !(isLower(name[0]) || name[0] == '_') {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(isLower(c) || isDigit(c) || c == '_') {
			return false
		}
	}
	return true
}

// PascalCase reports whether name is ASCII letters and digits starting
// with an upper-case letter.
func PascalCase(name string) bool {
	if name == "" || !isUpper(name[0]) {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(isLower(c) || isUpper(c) || isDigit(c)) {
			return false
		}
	}
	return true
}

// ToSnake converts a name to snake_case: a word starts at an upper-case
// letter that follows a lower-case letter or a digit, or that begins a
// capitalised word after an acronym (`HTTPGet` is `http_get`); everything
// is lower-cased and characters other than letters, digits and
// underscores are dropped.
func ToSnake(name string) string {
	var b []byte
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case isUpper(c):
			prev := byte(0)
			if len(b) > 0 {
				prev = name[i-1]
			}
			next := byte(0)
			if i+1 < len(name) {
				next = name[i+1]
			}
			if len(b) > 0 && b[len(b)-1] != '_' && (isLower(prev) || isDigit(prev) || (isUpper(prev) && isLower(next))) {
				b = append(b, '_')
			}
			b = append(b, c+'a'-'A')
		case isLower(c) || isDigit(c) || c == '_':
			b = append(b, c)
		}
	}
	return string(b)
}

// ToPascal converts a name to PascalCase: words split at characters
// other than letters and digits, each capitalised; a word written all in
// capitals is lower-cased after its first letter (`HTTP_CLIENT` is
// `HttpClient`), other letters keep their case (`fetchData` is
// `FetchData`).
func ToPascal(name string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(name, func(r rune) bool {
		return r >= 128 || !(isLower(byte(r)) || isUpper(byte(r)) || isDigit(byte(r)))
	}) {
		if w == strings.ToUpper(w) {
			w = strings.ToLower(w)
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

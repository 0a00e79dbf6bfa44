package leia

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/template"
)

// maxTemplateOutput bounds what one template renders (a template's range
// over a large value, or its own recursion, could otherwise build text
// without end).
const maxTemplateOutput = 16 << 20

// templateDialect is `template { text: "...", data: {...} }`: the text is a
// Go text/template ({{.field}}, {{range .list}}, ...) rendered over data
// (a table, seen as its JSON value), as upstream's reporting examples use it.
// The string form template`...` is the text rendered over no data.
var templateDialect = Dialect{Name: "template", Doc: "text/template text rendered over data",
	Text: func(t *Thread, s string, _ DialectOptions) (Value, error) { return renderTemplate(t, s, Nil) },
	Block: func(t *Thread, fields *Table, _ DialectOptions) (Value, error) {
		text := fields.GetStr("text")
		if text.k != KindString {
			return Nil, fmt.Errorf("template: text must be a string, got %s", text.TypeName())
		}
		return renderTemplate(t, text.AsString(), fields.GetStr("data"))
	},
}

func renderTemplate(t *Thread, text string, data Value) (Value, error) {
	tpl, err := template.New("template").Option("missingkey=zero").Parse(text)
	if err != nil {
		return Nil, fmt.Errorf("template: %v", err)
	}
	var goData any
	if data.k != KindNil {
		enc, err := EncodeJSON(t, data, "")
		if err != nil {
			return Nil, fmt.Errorf("template: data: %v", err)
		}
		if err := json.Unmarshal([]byte(enc), &goData); err != nil {
			return Nil, fmt.Errorf("template: data: %v", err)
		}
	}
	out := &limitedBuilder{max: maxTemplateOutput}
	if err := tpl.Execute(out, goData); err != nil {
		if errors.Is(err, errTemplateTooLong) {
			return Nil, fmt.Errorf("template: output longer than %d bytes", maxTemplateOutput)
		}
		return Nil, fmt.Errorf("template: %v", err)
	}
	t.allocBytes(int64(out.b.Len()), -1)
	return String(out.b.String()), nil
}

var errTemplateTooLong = errors.New("template output too long")

// limitedBuilder is a strings.Builder that refuses to grow past max.
type limitedBuilder struct {
	b   strings.Builder
	max int
}

func (l *limitedBuilder) Write(p []byte) (int, error) {
	if l.b.Len()+len(p) > l.max {
		return 0, errTemplateTooLong
	}
	return l.b.Write(p)
}

package ast

import (
	"fmt"
	"reflect"
	"strings"
)

// Dump renders a node and everything below it as an indented, deterministic
// text: one line per node with its type and span, then its non-empty fields.
// Golden tests and `harn-check parse` use it; the format is for people, not
// for parsing.
func Dump(n Node) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(n), 0)
	return b.String()
}

var spanType = reflect.TypeOf(Span{})

func dumpValue(b *strings.Builder, v reflect.Value, depth int) {
	indent := strings.Repeat("  ", depth)
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil\n")
			return
		}
		dumpValue(b, v.Elem(), depth)
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil\n")
			return
		}
		dumpValue(b, v.Elem(), depth)
	case reflect.Struct:
		t := v.Type()
		if t == spanType {
			s := v.Interface().(Span)
			fmt.Fprintf(b, "[%d,%d)\n", s.Start, s.End)
			return
		}
		b.WriteString(t.Name())
		if f := v.FieldByName("Span"); f.IsValid() && f.Type() == spanType {
			s := f.Interface().(Span)
			fmt.Fprintf(b, " [%d,%d)", s.Start, s.End)
		}
		b.WriteByte('\n')
		for i := 0; i < t.NumField(); i++ {
			name := t.Field(i).Name
			f := v.Field(i)
			_, stringer := f.Interface().(fmt.Stringer)
			if name == "Span" || (f.IsZero() && !(stringer && f.Kind() == reflect.Int)) {
				continue
			}
			if f.Kind() == reflect.Slice && f.Len() == 0 {
				continue
			}
			fmt.Fprintf(b, "%s  %s: ", indent, name)
			dumpValue(b, f, depth+1)
		}
	case reflect.Slice:
		b.WriteString("\n")
		for i := 0; i < v.Len(); i++ {
			fmt.Fprintf(b, "%s  - ", indent)
			dumpValue(b, v.Index(i), depth+1)
		}
	case reflect.String:
		fmt.Fprintf(b, "%q\n", v.String())
	default:
		if s, ok := v.Interface().(fmt.Stringer); ok {
			fmt.Fprintf(b, "%s\n", s.String())
			return
		}
		fmt.Fprintf(b, "%v\n", v.Interface())
	}
}

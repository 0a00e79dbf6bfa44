package ast

import (
	"fmt"
	"reflect"
	"strings"
)

// Dump renders a node and everything below it as indented text, one node
// per line with its span and non-empty scalar fields. It is meant for golden
// tests and debugging; the format may change.
func Dump(n any) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(n), "", 0)
	return b.String()
}

var spanType = reflect.TypeOf(Span{})

func dumpValue(b *strings.Builder, v reflect.Value, label string, depth int) {
	indent := strings.Repeat("  ", depth)
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			dumpValue(b, v.Index(i), label, depth)
		}
		return
	default:
		return
	}
	t := v.Type()
	b.WriteString(indent)
	if label != "" {
		b.WriteString(label + ": ")
	}
	b.WriteString(t.Name())
	var nested []int
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		fv := v.Field(i)
		if !f.IsExported() {
			continue
		}
		if f.Type == spanType {
			s := fv.Interface().(Span)
			fmt.Fprintf(b, " [%d,%d)", s.Start, s.End)
			continue
		}
		if s, ok := scalar(fv); ok {
			if s != "" {
				fmt.Fprintf(b, " %s=%s", f.Name, s)
			}
			continue
		}
		nested = append(nested, i)
	}
	b.WriteString("\n")
	for _, i := range nested {
		dumpValue(b, v.Field(i), t.Field(i).Name, depth+1)
	}
}

// scalar renders a field that is not a node: strings quoted, enums by name;
// empty strings and false are left out.
func scalar(v reflect.Value) (string, bool) {
	if st, ok := v.Interface().(fmt.Stringer); ok && v.Kind() == reflect.Uint8 {
		return st.String(), true
	}
	switch v.Kind() {
	case reflect.String:
		if v.String() == "" {
			return "", true
		}
		return fmt.Sprintf("%q", v.String()), true
	case reflect.Bool:
		if !v.Bool() {
			return "", true
		}
		return "true", true
	case reflect.Int64:
		return fmt.Sprint(v.Int()), true
	case reflect.Float64:
		return fmt.Sprint(v.Float()), true
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.String {
			if v.Len() == 0 {
				return "", true
			}
			return fmt.Sprintf("%q", v.Interface()), true
		}
	}
	return "", false
}

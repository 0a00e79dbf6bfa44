package harn

import (
	"fmt"
	"sort"
	"strings"
)

// The corrective message a schema retry appends (llm_call's
// schema_retries): by default it lists the validation errors, the
// schema's required and top-level keys and a short outline of its shape;
// schema_retry_nudge: "text" sends that text with the errors, and
// schema_retry_nudge: false retries without a message.

const (
	nudgeMaxDepth = 3
	nudgeMaxLines = 8
	nudgeMaxKeys  = 16
)

// schemaNudge is the message for errs, "" when nudging is off.
func schemaNudge(errs []string, schema *Dict, opts *Dict) string {
	errLine := "(no detailed errors)"
	if len(errs) > 0 {
		errLine = strings.Join(errs, "; ")
	}
	if v, ok := opts.Get("schema_retry_nudge"); ok && v.k != KindNil {
		if v.k == KindBool {
			if !v.AsBool() {
				return ""
			}
		} else {
			return Display(v) + "\n\nValidation errors: " + errLine
		}
	}
	var b strings.Builder
	b.WriteString("Your previous response did not match the required JSON schema.")
	b.WriteString("\nValidation errors: " + errLine + ".")
	if schema != nil {
		if req := schemaKeys(schema, "required", false); len(req) > 0 {
			b.WriteString("\nRequired keys: " + strings.Join(req, ", ") + ".")
		}
		if props := schemaKeys(schema, "properties", false); len(props) > 0 {
			b.WriteString("\nAllowed top-level keys: " + strings.Join(props, ", ") + ".")
		}
		var lines []string
		schemaShape(DictValue(schema), "root", 0, &lines)
		if len(lines) > 0 {
			b.WriteString("\nExpected JSON schema shape:")
			for _, l := range lines {
				b.WriteString("\n- " + l)
			}
		}
	}
	b.WriteString("\nRespond again with ONLY valid JSON conforming to the schema. No prose, no markdown fences.")
	return b.String()
}

// schemaKeys lists a schema's required names or property names, sorted
// when asked.
func schemaKeys(s *Dict, key string, sorted bool) []string {
	v, ok := s.Get(key)
	if !ok {
		return nil
	}
	var out []string
	switch v.k {
	case KindList:
		for _, it := range v.r.(*List).items {
			if it.k == KindString {
				out = append(out, it.r.(string))
			}
		}
	case KindDict:
		out = append(out, v.r.(*Dict).Keys()...)
	}
	if sorted {
		sort.Strings(out)
	}
	return out
}

func limitedKeys(keys []string) string {
	if len(keys) <= nudgeMaxKeys {
		return strings.Join(keys, ", ")
	}
	return fmt.Sprintf("%s, ... (+%d more)", strings.Join(keys[:nudgeMaxKeys], ", "), len(keys)-nudgeMaxKeys)
}

func schemaShape(v Value, path string, depth int, lines *[]string) {
	if depth > nudgeMaxDepth || len(*lines) >= nudgeMaxLines || v.k != KindDict {
		return
	}
	s := v.r.(*Dict)
	typ, _ := s.Get("type")
	props, hasProps := s.Get("properties")
	if (Display(typ) == "object" || hasProps) && props.k == KindDict {
		keys := props.r.(*Dict).Keys()
		if len(keys) > 0 {
			line := path + " object allowed keys: " + limitedKeys(keys)
			if req := schemaKeys(s, "required", true); len(req) > 0 {
				line += "; required keys: " + limitedKeys(req)
			}
			*lines = append(*lines, line)
		}
		for _, k := range keys {
			if len(*lines) >= nudgeMaxLines {
				break
			}
			child, _ := props.r.(*Dict).Get(k)
			cp := k
			if path != "root" {
				cp = path + "." + k
			}
			schemaShape(child, cp, depth+1, lines)
		}
	}
	items, hasItems := s.Get("items")
	if Display(typ) == "array" || hasItems {
		if hasItems {
			schemaShape(items, path+"[]", depth+1, lines)
		}
	}
}

package jsonschema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ValidationError is a failed validation: a tree whose leaves say which
// keyword failed where. The root (returned by Validate) has no keyword;
// each cause is one failing keyword of the schema, and an applicator's
// (properties, items, allOf, $ref, ...) causes are its subschemas'
// failures.
type ValidationError struct {
	// Keyword is the schema keyword that failed ("type", "required", ...).
	Keyword string
	// InstanceLocation is the path of the failing value in the instance:
	// property names and array indexes (0-based), outermost first.
	InstanceLocation []string
	// Message describes the failure, for example "minimum: got 0, want 1".
	Message string
	// Missing lists the absent properties of a "required" failure.
	Missing []string
	// Got and Want are the JSON types of a "type" failure (Got is
	// "number" for every number).
	Got  string
	Want []string
	// Causes are the failures underneath an applicator.
	Causes []*ValidationError
}

// Error lists the leaf failures, one per line, each with the instance
// location as a JSON pointer.
func (e *ValidationError) Error() string {
	var lines []string
	var walk func(e *ValidationError, depth int)
	walk = func(e *ValidationError, depth int) {
		if len(e.Causes) == 0 || depth > 4*MaxDepth { // deeper trees are not built
			lines = append(lines, fmt.Sprintf("at '%s': %s", pointer(e.InstanceLocation), e.Message))
			return
		}
		for _, c := range e.Causes {
			walk(c, depth+1)
		}
	}
	walk(e, 0)
	return "the value does not match the schema:\n- " + strings.Join(lines, "\n- ")
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, t := range loc {
		b.WriteByte('/')
		b.WriteString(escapePointer(t))
	}
	return b.String()
}

// Validate checks v against the schema: nil, or a *ValidationError.
func (s *Schema) Validate(v any) error {
	errs, _ := validate(s.root, v, nil, 0)
	if len(errs) == 0 {
		return nil
	}
	return &ValidationError{Message: "does not match the schema", Causes: errs}
}

// evaluated is what a successful validation evaluated of an object or
// array, for unevaluatedProperties and unevaluatedItems.
type evaluated struct {
	props map[string]bool
	items int          // items [0, items) were evaluated
	all   bool         // every item was
	idx   map[int]bool // single items (contains)
}

func (e *evaluated) merge(o evaluated) {
	for k := range o.props {
		if e.props == nil {
			e.props = map[string]bool{}
		}
		e.props[k] = true
	}
	e.items = max(e.items, o.items)
	e.all = e.all || o.all
	for i := range o.idx {
		if e.idx == nil {
			e.idx = map[int]bool{}
		}
		e.idx[i] = true
	}
}

func (e *evaluated) prop(k string) {
	if e.props == nil {
		e.props = map[string]bool{}
	}
	e.props[k] = true
}

func fail(loc []string, kw, format string, args ...any) *ValidationError {
	return &ValidationError{Keyword: kw, InstanceLocation: loc, Message: fmt.Sprintf(format, args...)}
}

func child(loc []string, tok string) []string {
	out := make([]string, len(loc)+1)
	copy(out, loc)
	out[len(loc)] = tok
	return out
}

// validate returns the failures of v against n (none: valid) and, when
// valid, what it evaluated.
func validate(n *node, v any, loc []string, depth int) ([]*ValidationError, evaluated) {
	var ev evaluated
	if depth > MaxDepth {
		return []*ValidationError{fail(loc, "", "nested deeper than %d (a $ref cycle?)", MaxDepth)}, ev
	}
	if n.always != nil {
		if !*n.always {
			return []*ValidationError{fail(loc, "false", "no value is allowed here (false schema)")}, ev
		}
		return nil, ev
	}
	var errs []*ValidationError
	if n.ref != nil {
		sub, e := validate(n.ref, v, loc, depth+1)
		if len(sub) > 0 {
			errs = append(errs, &ValidationError{Keyword: "$ref", InstanceLocation: loc, Message: "does not match the referenced schema", Causes: sub})
		} else {
			ev.merge(e)
		}
		if n.refOnly {
			return errs, ev
		}
	}
	errs = append(errs, n.assert(v, loc)...)
	switch x := v.(type) {
	case map[string]any:
		errs = append(errs, n.object(x, loc, depth, &ev)...)
	case []any:
		errs = append(errs, n.array(x, loc, depth, &ev)...)
	}
	errs = append(errs, n.logic(v, loc, depth, &ev)...)
	// unevaluated* see the annotations of everything above
	switch x := v.(type) {
	case map[string]any:
		if n.unevalProps != nil {
			var bad []string
			for _, k := range sortedKeys(x) {
				if ev.props[k] {
					continue
				}
				if sub, _ := validate(n.unevalProps, x[k], child(loc, k), depth+1); len(sub) > 0 {
					bad = append(bad, k)
				}
				ev.prop(k)
			}
			if len(bad) > 0 {
				errs = append(errs, fail(loc, "unevaluatedProperties", "unevaluated properties %s not allowed", quoteAll(bad)))
			}
		}
	case []any:
		if n.unevalItems != nil && !ev.all {
			for i := ev.items; i < len(x); i++ {
				if ev.idx[i] {
					continue
				}
				if sub, _ := validate(n.unevalItems, x[i], child(loc, strconv.Itoa(i)), depth+1); len(sub) > 0 {
					errs = append(errs, &ValidationError{Keyword: "unevaluatedItems", InstanceLocation: loc, Message: fmt.Sprintf("unevaluated item %d not allowed", i), Causes: sub})
					break
				}
			}
			ev.all = true
		}
	}
	if len(errs) > 0 {
		return errs, evaluated{}
	}
	return nil, ev
}

func quoteAll(ks []string) string {
	q := make([]string, len(ks))
	for i, k := range ks {
		q[i] = strconv.Quote(k)
	}
	return strings.Join(q, ", ")
}

func jsonText(v any) string {
	if n, ok := v.(json.Number); ok {
		return string(n)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// assert checks the keywords that look at v alone.
func (n *node) assert(v any, loc []string) []*ValidationError {
	var errs []*ValidationError
	if len(n.types) > 0 {
		got := typeName(v)
		ok := false
		for _, t := range n.types {
			if t == got || (t == "number" && got == "integer") {
				ok = true
				break
			}
		}
		if !ok {
			shown := got
			if shown == "integer" {
				shown = "number"
			}
			e := fail(loc, "type", "got %s, want %s", shown, strings.Join(n.types, " or "))
			e.Got, e.Want = shown, n.types
			errs = append(errs, e)
		}
	}
	if n.hasEnum {
		found := false
		for _, e := range n.enum {
			if equal(v, e) {
				found = true
				break
			}
		}
		if !found {
			errs = append(errs, fail(loc, "enum", "value must be one of %s", enumText(n.enum)))
		}
	}
	if n.hasConst && !equal(v, n.constV) {
		errs = append(errs, fail(loc, "const", "value must be %s", jsonText(n.constV)))
	}
	if f, ok := toFloat(v); ok {
		errs = append(errs, n.number(v, f, loc)...)
	}
	if s, ok := v.(string); ok {
		if n.maxLength >= 0 || n.minLength >= 0 {
			l := utf8.RuneCountInString(s)
			if n.maxLength >= 0 && l > n.maxLength {
				errs = append(errs, fail(loc, "maxLength", "maxLength: got %d, want %d", l, n.maxLength))
			}
			if n.minLength >= 0 && l < n.minLength {
				errs = append(errs, fail(loc, "minLength", "minLength: got %d, want %d", l, n.minLength))
			}
		}
		if n.pattern != nil && !n.pattern.MatchString(s) {
			errs = append(errs, fail(loc, "pattern", "%q does not match pattern %q", s, n.pattern.String()))
		}
	}
	return errs
}

func enumText(vs []any) string {
	parts := make([]string, 0, len(vs))
	for i, v := range vs {
		if i == 8 {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, jsonText(v))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (n *node) number(v any, f float64, loc []string) []*ValidationError {
	var errs []*ValidationError
	got := jsonText(v)
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	if n.maximum != nil && f > *n.maximum {
		errs = append(errs, fail(loc, "maximum", "maximum: got %s, want %s", got, num(*n.maximum)))
	}
	if n.minimum != nil && f < *n.minimum {
		errs = append(errs, fail(loc, "minimum", "minimum: got %s, want %s", got, num(*n.minimum)))
	}
	if n.exclMax != nil && f >= *n.exclMax {
		errs = append(errs, fail(loc, "exclusiveMaximum", "exclusiveMaximum: got %s, want %s", got, num(*n.exclMax)))
	}
	if n.exclMin != nil && f <= *n.exclMin {
		errs = append(errs, fail(loc, "exclusiveMinimum", "exclusiveMinimum: got %s, want %s", got, num(*n.exclMin)))
	}
	if n.multipleOf != nil {
		r, ok := toRat(v)
		if ok && !new(big.Rat).Quo(r, n.multipleOf).IsInt() {
			errs = append(errs, fail(loc, "multipleOf", "%s is not a multiple of %s", got, n.multipleOf.RatString()))
		}
	}
	return errs
}

func (n *node) object(x map[string]any, loc []string, depth int, ev *evaluated) []*ValidationError {
	var errs []*ValidationError
	if n.maxProps >= 0 && len(x) > n.maxProps {
		errs = append(errs, fail(loc, "maxProperties", "maxProperties: got %d, want %d", len(x), n.maxProps))
	}
	if n.minProps >= 0 && len(x) < n.minProps {
		errs = append(errs, fail(loc, "minProperties", "minProperties: got %d, want %d", len(x), n.minProps))
	}
	var missing []string
	for _, k := range n.required {
		if _, ok := x[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		e := fail(loc, "required", "missing properties %s", quoteAll(missing))
		if len(missing) == 1 {
			e.Message = "missing property " + strconv.Quote(missing[0])
		}
		e.Missing = missing
		errs = append(errs, e)
	}
	for _, k := range sortedKeys(n.dependentRequired) {
		if _, ok := x[k]; !ok {
			continue
		}
		for _, d := range n.dependentRequired[k] {
			if _, ok := x[d]; !ok {
				e := fail(loc, "dependentRequired", "property %q requires property %q", k, d)
				e.Missing = []string{d}
				errs = append(errs, e)
			}
		}
	}
	for _, k := range sortedKeys(n.dependentSchemas) {
		if _, ok := x[k]; !ok {
			continue
		}
		sub, e := validate(n.dependentSchemas[k], x, loc, depth+1)
		if len(sub) > 0 {
			errs = append(errs, &ValidationError{Keyword: "dependentSchemas", InstanceLocation: loc, Message: fmt.Sprintf("property %q brings a schema the object does not match", k), Causes: sub})
		} else {
			ev.merge(e)
		}
	}
	var bad []*ValidationError
	var extra []string
	for _, k := range sortedKeys(x) {
		val := x[k]
		matched := false
		if s, ok := n.properties[k]; ok {
			matched = true
			if sub, _ := validate(s, val, child(loc, k), depth+1); len(sub) > 0 {
				bad = append(bad, sub...)
			}
		}
		for _, pp := range n.patternProps {
			if pp.re.MatchString(k) {
				matched = true
				if sub, _ := validate(pp.schema, val, child(loc, k), depth+1); len(sub) > 0 {
					bad = append(bad, sub...)
				}
			}
		}
		if matched {
			ev.prop(k)
			continue
		}
		if n.additionalProps != nil {
			ev.prop(k)
			if n.additionalProps.always != nil && !*n.additionalProps.always {
				extra = append(extra, k)
			} else if sub, _ := validate(n.additionalProps, val, child(loc, k), depth+1); len(sub) > 0 {
				bad = append(bad, sub...)
			}
		}
	}
	if n.propertyNames != nil {
		for _, k := range sortedKeys(x) {
			if sub, _ := validate(n.propertyNames, k, child(loc, k), depth+1); len(sub) > 0 {
				errs = append(errs, &ValidationError{Keyword: "propertyNames", InstanceLocation: loc, Message: fmt.Sprintf("property name %q is not allowed", k), Causes: sub})
			}
		}
	}
	if len(extra) > 0 {
		errs = append(errs, fail(loc, "additionalProperties", "additional properties %s not allowed", quoteAll(extra)))
	}
	if len(bad) > 0 {
		errs = append(errs, &ValidationError{Keyword: "properties", InstanceLocation: loc, Message: "properties do not match their schemas", Causes: bad})
	}
	return errs
}

func (n *node) array(x []any, loc []string, depth int, ev *evaluated) []*ValidationError {
	var errs []*ValidationError
	if n.maxItems >= 0 && len(x) > n.maxItems {
		errs = append(errs, fail(loc, "maxItems", "maxItems: got %d, want %d", len(x), n.maxItems))
	}
	if n.minItems >= 0 && len(x) < n.minItems {
		errs = append(errs, fail(loc, "minItems", "minItems: got %d, want %d", len(x), n.minItems))
	}
	if n.uniqueItems {
	outer:
		for i := 1; i < len(x); i++ {
			for j := 0; j < i; j++ {
				if equal(x[i], x[j]) {
					errs = append(errs, fail(loc, "uniqueItems", "items at %d and %d are equal", j, i))
					break outer
				}
			}
		}
	}
	var bad []*ValidationError
	for i, s := range n.prefixItems {
		if i >= len(x) {
			break
		}
		if sub, _ := validate(s, x[i], child(loc, strconv.Itoa(i)), depth+1); len(sub) > 0 {
			bad = append(bad, sub...)
		}
	}
	ev.items = max(ev.items, min(len(n.prefixItems), len(x)))
	if n.items != nil {
		for i := len(n.prefixItems); i < len(x); i++ {
			if sub, _ := validate(n.items, x[i], child(loc, strconv.Itoa(i)), depth+1); len(sub) > 0 {
				bad = append(bad, sub...)
			}
		}
		ev.all = true
	}
	if len(bad) > 0 {
		errs = append(errs, &ValidationError{Keyword: "items", InstanceLocation: loc, Message: "items do not match their schemas", Causes: bad})
	}
	if n.contains != nil {
		matches := 0
		for i, e := range x {
			if sub, _ := validate(n.contains, e, child(loc, strconv.Itoa(i)), depth+1); len(sub) == 0 {
				matches++
				if ev.idx == nil {
					ev.idx = map[int]bool{}
				}
				ev.idx[i] = true
			}
		}
		minC := 1
		if n.minContains >= 0 {
			minC = n.minContains
		}
		if matches < minC {
			errs = append(errs, fail(loc, "contains", "contains: %d items match, want at least %d", matches, minC))
		}
		if n.maxContains >= 0 && matches > n.maxContains {
			errs = append(errs, fail(loc, "maxContains", "maxContains: %d items match, want at most %d", matches, n.maxContains))
		}
	}
	return errs
}

// logic checks allOf, anyOf, oneOf, not and if/then/else.
func (n *node) logic(v any, loc []string, depth int, ev *evaluated) []*ValidationError {
	var errs []*ValidationError
	if len(n.allOf) > 0 {
		var bad []*ValidationError
		for _, s := range n.allOf {
			sub, e := validate(s, v, loc, depth+1)
			bad = append(bad, sub...)
			ev.merge(e)
		}
		if len(bad) > 0 {
			errs = append(errs, &ValidationError{Keyword: "allOf", InstanceLocation: loc, Message: "does not match every schema of allOf", Causes: bad})
		}
	}
	if len(n.anyOf) > 0 {
		var bad []*ValidationError
		ok := false
		for _, s := range n.anyOf {
			sub, e := validate(s, v, loc, depth+1)
			if len(sub) == 0 {
				ok = true
				ev.merge(e)
			} else {
				bad = append(bad, sub...)
			}
		}
		if !ok {
			errs = append(errs, &ValidationError{Keyword: "anyOf", InstanceLocation: loc, Message: "matches none of the schemas of anyOf", Causes: bad})
		}
	}
	if len(n.oneOf) > 0 {
		var bad []*ValidationError
		var matched []int
		var one evaluated
		for i, s := range n.oneOf {
			sub, e := validate(s, v, loc, depth+1)
			if len(sub) == 0 {
				matched = append(matched, i)
				one = e
			} else {
				bad = append(bad, sub...)
			}
		}
		switch len(matched) {
		case 1:
			ev.merge(one)
		case 0:
			errs = append(errs, &ValidationError{Keyword: "oneOf", InstanceLocation: loc, Message: "matches none of the schemas of oneOf", Causes: bad})
		default:
			errs = append(errs, fail(loc, "oneOf", "matches schemas %d and %d of oneOf, want exactly one", matched[0], matched[1]))
		}
	}
	if n.not != nil {
		if sub, _ := validate(n.not, v, loc, depth+1); len(sub) == 0 {
			errs = append(errs, fail(loc, "not", "must not match the schema of not"))
		}
	}
	if n.ifS != nil {
		sub, e := validate(n.ifS, v, loc, depth+1)
		branch, kw := n.thenS, "then"
		if len(sub) == 0 {
			ev.merge(e)
		} else {
			branch, kw = n.elseS, "else"
		}
		if branch != nil {
			bsub, be := validate(branch, v, loc, depth+1)
			if len(bsub) > 0 {
				errs = append(errs, &ValidationError{Keyword: kw, InstanceLocation: loc, Message: "does not match the schema of " + kw, Causes: bsub})
			} else {
				ev.merge(be)
			}
		}
	}
	return errs
}

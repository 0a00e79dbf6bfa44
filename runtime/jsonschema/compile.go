package jsonschema

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// MaxDepth bounds the nesting of schemas (and of $ref chains followed
// while compiling) and of instances during validation.
const MaxDepth = 512

// Schema is a compiled schema, ready to validate any number of values.
// It is not modified by validation and may be shared between goroutines.
type Schema struct{ root *node }

type draft int

const (
	draft4    draft = 4
	draft6    draft = 6
	draft7    draft = 7
	draft2019 draft = 2019
	draft2020 draft = 2020
)

// node is one compiled schema object (or boolean schema).
type node struct {
	always *bool // a boolean schema

	ref *node // $ref (and $dynamicRef, $recursiveRef, resolved statically)
	// refOnly: a draft-07-or-earlier $ref, which hides its siblings.
	refOnly bool

	types    []string
	enum     []any
	hasEnum  bool
	constV   any
	hasConst bool

	multipleOf         *big.Rat
	maximum, minimum   *float64
	exclMax, exclMin   *float64
	maxLength          int
	minLength          int
	pattern            *regexp.Regexp
	maxItems, minItems int
	uniqueItems        bool
	maxContains        int
	minContains        int
	maxProps, minProps int
	required           []string
	dependentRequired  map[string][]string
	dependentSchemas   map[string]*node

	properties      map[string]*node
	patternProps    []patternProp
	additionalProps *node
	propertyNames   *node

	prefixItems []*node
	items       *node // the items after prefixItems
	contains    *node

	allOf, anyOf, oneOf []*node
	not                 *node
	ifS, thenS, elseS   *node
	unevalProps         *node
	unevalItems         *node
}

type patternProp struct {
	re     *regexp.Regexp
	schema *node
}

// CompileError says why a schema is not well formed; Location is a JSON
// pointer into the schema document.
type CompileError struct {
	Location string
	Message  string
}

func (e *CompileError) Error() string {
	if e.Location == "" {
		return "invalid schema: " + e.Message
	}
	return fmt.Sprintf("invalid schema at %q: %s", e.Location, e.Message)
}

// CompileJSON compiles a schema from its JSON text.
func CompileJSON(text []byte) (*Schema, error) {
	doc, err := DecodeJSON(text)
	if err != nil {
		return nil, &CompileError{Message: "not JSON: " + err.Error()}
	}
	return Compile(doc)
}

// DecodeJSON decodes one JSON value, keeping numbers exact (json.Number),
// and refuses trailing data.
func DecodeJSON(text []byte) (any, error) {
	dec := json.NewDecoder(strings.NewReader(string(text)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

// rootURI is the base URI of a schema document without an $id.
const rootURI = "mem:///schema.json"

// Compile compiles a schema document: a decoded JSON value (an object or
// a boolean).
func Compile(doc any) (s *Schema, err error) {
	base, _ := url.Parse(rootURI)
	c := &compiler{
		docs:    map[string]location{},
		anchors: map[string]location{},
		nodes:   map[string]*node{},
		draft:   draftOf(doc),
	}
	root := c.at(doc, base, rootURI, "")
	c.docs[rootURI] = location{raw: doc, base: base, res: rootURI}
	if err := c.index(root, 0); err != nil {
		return nil, err
	}
	n, err := c.compile(root, 0)
	if err != nil {
		return nil, err
	}
	return &Schema{root: n}, nil
}

func draftOf(doc any) draft {
	m, _ := doc.(map[string]any)
	s, _ := m["$schema"].(string)
	switch {
	case strings.Contains(s, "draft-04"):
		return draft4
	case strings.Contains(s, "draft-06"):
		return draft6
	case strings.Contains(s, "draft-07"):
		return draft7
	case strings.Contains(s, "2019-09"):
		return draft2019
	}
	return draft2020
}

// location is a subschema's place: its raw value, the base URI its
// relative references resolve against, and its canonical name (the
// resource's URI and a JSON pointer inside it).
type location struct {
	raw  any
	base *url.URL
	res  string
	ptr  string
}

func (l location) key() string { return l.res + "#" + l.ptr }

type compiler struct {
	docs    map[string]location // resources by URI
	anchors map[string]location // "uri#name"
	nodes   map[string]*node    // compiled, by location key
	draft   draft
}

func (c *compiler) idKeyword() string {
	if c.draft == draft4 {
		return "id"
	}
	return "$id"
}

// at is the location of raw reached at ptr inside resource res: an $id
// starts a new resource there.
func (c *compiler) at(raw any, base *url.URL, res, ptr string) location {
	m, ok := raw.(map[string]any)
	if !ok {
		return location{raw: raw, base: base, res: res, ptr: ptr}
	}
	id, ok := m[c.idKeyword()].(string)
	if !ok || id == "" || strings.HasPrefix(id, "#") {
		return location{raw: raw, base: base, res: res, ptr: ptr}
	}
	if _, hasRef := m["$ref"]; hasRef && c.draft <= draft7 {
		// an $id beside a $ref is ignored in these drafts
		return location{raw: raw, base: base, res: res, ptr: ptr}
	}
	u, err := base.Parse(id)
	if err != nil {
		return location{raw: raw, base: base, res: res, ptr: ptr}
	}
	u.Fragment, u.RawFragment = "", ""
	return location{raw: raw, base: u, res: u.String(), ptr: ""}
}

// subschemas calls f for each subschema of the schema object m, with the
// JSON-pointer suffix that reaches it.
func (c *compiler) subschemas(m map[string]any, f func(suffix string, raw any) error) error {
	single := []string{"not", "if", "then", "else", "additionalProperties", "propertyNames",
		"contains", "additionalItems", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
	for _, k := range single {
		if v, ok := m[k]; ok {
			if err := f("/"+k, v); err != nil {
				return err
			}
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"} {
		if a, ok := m[k].([]any); ok {
			for i, v := range a {
				if err := f("/"+k+"/"+strconv.Itoa(i), v); err != nil {
					return err
				}
			}
		} else if v, ok := m[k]; ok && k == "items" {
			if err := f("/items", v); err != nil {
				return err
			}
		}
	}
	for _, k := range []string{"$defs", "definitions", "properties", "patternProperties", "dependentSchemas", "dependencies"} {
		obj, ok := m[k].(map[string]any)
		if !ok {
			continue
		}
		for _, name := range sortedKeys(obj) {
			v := obj[name]
			if _, isList := v.([]any); isList && k == "dependencies" {
				continue
			}
			if err := f("/"+k+"/"+escapePointer(name), v); err != nil {
				return err
			}
		}
	}
	return nil
}

// index records every resource ($id) and anchor of the document.
func (c *compiler) index(l location, depth int) error {
	if depth > MaxDepth {
		return &CompileError{Location: l.ptr, Message: fmt.Sprintf("nested deeper than %d", MaxDepth)}
	}
	m, ok := l.raw.(map[string]any)
	if !ok {
		return nil
	}
	if l.ptr == "" {
		if _, seen := c.docs[l.res]; !seen {
			c.docs[l.res] = l
		}
	}
	addAnchor := func(name string) {
		if name != "" {
			c.anchors[l.res+"#"+name] = l
		}
	}
	if id, ok := m[c.idKeyword()].(string); ok && strings.HasPrefix(id, "#") && c.draft <= draft7 {
		addAnchor(id[1:])
	}
	if a, ok := m["$anchor"].(string); ok {
		addAnchor(a)
	}
	if a, ok := m["$dynamicAnchor"].(string); ok {
		addAnchor(a)
	}
	return c.subschemas(m, func(suffix string, raw any) error {
		return c.index(c.at(raw, l.base, l.res, l.ptr+suffix), depth+1)
	})
}

func (c *compiler) fail(l location, format string, args ...any) error {
	return &CompileError{Location: l.ptr, Message: fmt.Sprintf(format, args...)}
}

// compile compiles the schema at l (memoised by location, so $ref cycles
// compile to cyclic nodes).
func (c *compiler) compile(l location, depth int) (*node, error) {
	if depth > MaxDepth {
		return nil, c.fail(l, "nested deeper than %d", MaxDepth)
	}
	if n, ok := c.nodes[l.key()]; ok {
		return n, nil
	}
	n := &node{maxLength: -1, minLength: -1, maxItems: -1, minItems: -1, maxContains: -1, minContains: -1, maxProps: -1, minProps: -1}
	c.nodes[l.key()] = n
	switch raw := l.raw.(type) {
	case bool:
		n.always = &raw
		return n, nil
	case map[string]any:
		if err := c.keywords(n, l, raw, depth); err != nil {
			return nil, err
		}
		return n, nil
	}
	return nil, c.fail(l, "a schema must be an object or a boolean, not %s", typeName(l.raw))
}

func (c *compiler) sub(l location, suffix string, raw any, depth int) (*node, error) {
	return c.compile(c.at(raw, l.base, l.res, l.ptr+suffix), depth+1)
}

func (c *compiler) keywords(n *node, l location, m map[string]any, depth int) error {
	// references
	for _, k := range []string{"$ref", "$dynamicRef", "$recursiveRef"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		s, ok := v.(string)
		if !ok {
			return c.fail(l, "%s must be a string", k)
		}
		target, err := c.resolve(l, s)
		if err != nil {
			return err
		}
		if n.ref, err = c.compile(target, depth+1); err != nil {
			return err
		}
		if k == "$ref" && c.draft <= draft7 {
			n.refOnly = true
			return nil
		}
		break
	}
	if err := c.assertions(n, l, m); err != nil {
		return err
	}
	return c.applicators(n, l, m, depth)
}

// resolve finds the location a reference names.
func (c *compiler) resolve(l location, ref string) (location, error) {
	u, err := l.base.Parse(ref)
	if err != nil {
		return location{}, c.fail(l, "$ref %q is not a URI reference", ref)
	}
	frag := u.Fragment
	u.Fragment, u.RawFragment = "", ""
	res := u.String()
	if frag != "" && !strings.HasPrefix(frag, "/") {
		if a, ok := c.anchors[res+"#"+frag]; ok {
			return a, nil
		}
		return location{}, c.fail(l, "$ref %q: no anchor %q in this schema (external schemas are not loaded)", ref, frag)
	}
	doc, ok := c.docs[res]
	if !ok {
		return location{}, c.fail(l, "$ref %q is outside this schema (external schemas are not loaded)", ref)
	}
	if frag == "" {
		return doc, nil
	}
	raw := doc.raw
	{
		for _, tok := range strings.Split(frag[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch x := raw.(type) {
			case map[string]any:
				v, ok := x[tok]
				if !ok {
					return location{}, c.fail(l, "$ref %q points at nothing", ref)
				}
				raw = v
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(x) {
					return location{}, c.fail(l, "$ref %q points at nothing", ref)
				}
				raw = x[i]
			default:
				return location{}, c.fail(l, "$ref %q points at nothing", ref)
			}
		}
	}
	return c.at(raw, doc.base, res, frag), nil
}

var typeNames = map[string]bool{"null": true, "boolean": true, "object": true, "array": true, "number": true, "string": true, "integer": true}

func (c *compiler) assertions(n *node, l location, m map[string]any) error {
	if v, ok := m["type"]; ok {
		switch t := v.(type) {
		case string:
			n.types = []string{t}
		case []any:
			for _, e := range t {
				s, ok := e.(string)
				if !ok {
					return c.fail(l, "type must list type names")
				}
				n.types = append(n.types, s)
			}
		default:
			return c.fail(l, "type must be a type name or a list of them")
		}
		for _, t := range n.types {
			if !typeNames[t] {
				return c.fail(l, "type %q is not a JSON Schema type", t)
			}
		}
	}
	if v, ok := m["enum"]; ok {
		a, ok := v.([]any)
		if !ok {
			return c.fail(l, "enum must be an array")
		}
		n.enum, n.hasEnum = a, true
	}
	if v, ok := m["const"]; ok {
		n.constV, n.hasConst = v, true
	}
	if v, ok := m["multipleOf"]; ok {
		r, ok := toRat(v)
		if !ok || r.Sign() <= 0 {
			return c.fail(l, "multipleOf must be a number greater than 0")
		}
		n.multipleOf = r
	}
	num := func(k string) (*float64, error) {
		v, ok := m[k]
		if !ok {
			return nil, nil
		}
		f, ok := toFloat(v)
		if !ok {
			return nil, c.fail(l, "%s must be a number", k)
		}
		return &f, nil
	}
	var err error
	if n.maximum, err = num("maximum"); err != nil {
		return err
	}
	if n.minimum, err = num("minimum"); err != nil {
		return err
	}
	for _, k := range []string{"exclusiveMaximum", "exclusiveMinimum"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		bound := &n.exclMax
		plain := &n.maximum
		if k == "exclusiveMinimum" {
			bound, plain = &n.exclMin, &n.minimum
		}
		if b, isBool := v.(bool); isBool && c.draft == draft4 {
			if b && *plain != nil {
				*bound, *plain = *plain, nil
			}
			continue
		}
		if *bound, err = num(k); err != nil {
			return err
		}
	}
	count := func(k string, dst *int) error {
		v, ok := m[k]
		if !ok {
			return nil
		}
		f, ok := toFloat(v)
		if !ok || f < 0 || f != math.Trunc(f) {
			return c.fail(l, "%s must be a non-negative integer", k)
		}
		*dst = int(min(f, math.MaxInt32))
		return nil
	}
	for k, dst := range map[string]*int{"maxLength": &n.maxLength, "minLength": &n.minLength, "maxItems": &n.maxItems,
		"minItems": &n.minItems, "maxContains": &n.maxContains, "minContains": &n.minContains,
		"maxProperties": &n.maxProps, "minProperties": &n.minProps} {
		if err := count(k, dst); err != nil {
			return err
		}
	}
	if v, ok := m["pattern"]; ok {
		s, ok := v.(string)
		if !ok {
			return c.fail(l, "pattern must be a string")
		}
		if n.pattern, err = regexp.Compile(s); err != nil {
			return c.fail(l, "pattern %q: %v", s, err)
		}
	}
	if v, ok := m["uniqueItems"]; ok {
		b, ok := v.(bool)
		if !ok {
			return c.fail(l, "uniqueItems must be a boolean")
		}
		n.uniqueItems = b
	}
	if v, ok := m["required"]; ok {
		if n.required, err = c.names(l, "required", v); err != nil {
			return err
		}
	}
	if v, ok := m["dependentRequired"]; ok {
		obj, ok := v.(map[string]any)
		if !ok {
			return c.fail(l, "dependentRequired must be an object")
		}
		n.dependentRequired = map[string][]string{}
		for k, e := range obj {
			if n.dependentRequired[k], err = c.names(l, "dependentRequired", e); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *compiler) names(l location, k string, v any) ([]string, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, c.fail(l, "%s must be an array of property names", k)
	}
	out := make([]string, len(a))
	for i, e := range a {
		s, ok := e.(string)
		if !ok {
			return nil, c.fail(l, "%s must be an array of property names", k)
		}
		out[i] = s
	}
	return out, nil
}

func (c *compiler) applicators(n *node, l location, m map[string]any, depth int) error {
	var err error
	single := map[string]**node{"not": &n.not, "if": &n.ifS, "then": &n.thenS, "else": &n.elseS,
		"additionalProperties": &n.additionalProps, "propertyNames": &n.propertyNames, "contains": &n.contains,
		"unevaluatedItems": &n.unevalItems, "unevaluatedProperties": &n.unevalProps}
	for _, k := range sortedKeys(single) {
		if v, ok := m[k]; ok {
			if *single[k], err = c.sub(l, "/"+k, v, depth); err != nil {
				return err
			}
		}
	}
	for k, dst := range map[string]*[]*node{"allOf": &n.allOf, "anyOf": &n.anyOf, "oneOf": &n.oneOf, "prefixItems": &n.prefixItems} {
		v, ok := m[k]
		if !ok {
			continue
		}
		a, ok := v.([]any)
		if !ok || (len(a) == 0 && k != "prefixItems") {
			return c.fail(l, "%s must be a non-empty array of schemas", k)
		}
		if *dst, err = c.list(l, k, a, depth); err != nil {
			return err
		}
	}
	if v, ok := m["items"]; ok {
		if a, isList := v.([]any); isList {
			// the tuple form of the drafts before 2020-12
			if n.prefixItems, err = c.list(l, "items", a, depth); err != nil {
				return err
			}
			if ai, ok := m["additionalItems"]; ok {
				if n.items, err = c.sub(l, "/additionalItems", ai, depth); err != nil {
					return err
				}
			}
		} else if n.items, err = c.sub(l, "/items", v, depth); err != nil {
			return err
		}
	}
	for _, k := range []string{"properties", "patternProperties", "dependentSchemas", "dependencies"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return c.fail(l, "%s must be an object", k)
		}
		for _, name := range sortedKeys(obj) {
			e := obj[name]
			if k == "dependencies" {
				if _, isList := e.([]any); isList {
					if n.dependentRequired == nil {
						n.dependentRequired = map[string][]string{}
					}
					if n.dependentRequired[name], err = c.names(l, k, e); err != nil {
						return err
					}
					continue
				}
			}
			s, err := c.sub(l, "/"+k+"/"+escapePointer(name), e, depth)
			if err != nil {
				return err
			}
			switch k {
			case "properties":
				if n.properties == nil {
					n.properties = map[string]*node{}
				}
				n.properties[name] = s
			case "patternProperties":
				re, err := regexp.Compile(name)
				if err != nil {
					return c.fail(l, "patternProperties %q: %v", name, err)
				}
				n.patternProps = append(n.patternProps, patternProp{re, s})
			default:
				if n.dependentSchemas == nil {
					n.dependentSchemas = map[string]*node{}
				}
				n.dependentSchemas[name] = s
			}
		}
	}
	// $defs and definitions are compiled when referenced, but must be
	// well formed whether or not they are.
	for _, k := range []string{"$defs", "definitions"} {
		if v, ok := m[k]; ok {
			obj, ok := v.(map[string]any)
			if !ok {
				return c.fail(l, "%s must be an object", k)
			}
			for _, name := range sortedKeys(obj) {
				if _, err := c.sub(l, "/"+k+"/"+escapePointer(name), obj[name], depth); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (c *compiler) list(l location, k string, a []any, depth int) ([]*node, error) {
	out := make([]*node, len(a))
	for i, e := range a {
		s, err := c.sub(l, "/"+k+"/"+strconv.Itoa(i), e, depth)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

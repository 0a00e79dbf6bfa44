package ai

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/harnlang/harn-check/runtime/leia"
)

// Retrieval context and evidence: llm.doc / llm.document, llm.collection
// / llm.docs, llm.chunks / llm.chunk, llm.citation / llm.cite,
// llm.corpus, llm.corpus_add, llm.corpus_reset, llm.retrieve /
// llm.search, llm.context and llm.evidence. They package source text
// the script already holds into ordinary tables and messages: no
// persistence, no embeddings, no index outside the values returned, no
// access control (a host or tool filters documents before they are
// collected).
//
// Shapes (as upstream Leia builds them):
//
//   - a document is {__llm_doc = true, text, id?, title?, source?, tags?,
//     sections?, ..., artifact_id (defaults to id), metadata (the
//     identity fields), citation};
//   - a collection is {__llm_collection = true, docs, count};
//   - a context wrapper is {__llm_context = true, docs, text, message,
//     [1] = message, ...options}: its text is "LABEL:" followed, per
//     document, by "\n[ID] TITLE section S\nSource: SRC\nArtifact:
//     A\nTEXT" (absent parts left out; ID defaults to docN);
//   - a retrieval is a context wrapper plus query and matches (the
//     ranked documents, each with its score and citation).
//
// Ranking is lexical and deterministic: the query is split into unique
// lower-case letter/digit terms; a document's score is the number of
// occurrences of the terms in its identity fields, text, tags, metadata
// and citation; ties keep the lower id first.
//
// A request (turn, agent, section) with a context or evidence field gets
// the corresponding messages appended after its messages (ApplyContext),
// and a context wrapper placed inside a messages list stands for its
// message (ExpandMessages).

const (
	docMarker        = "__llm_doc"
	collectionMarker = "__llm_collection"
	contextMarker    = "__llm_context"
	corpusMarker     = "__llm_corpus"
)

// maxDocsDepth bounds how far docs(...) follows nested docs fields.
const maxDocsDepth = 16

// snippetBytes is the length a citation snippet is cut to.
const snippetBytes = 180

// docMetadataFields are the identity fields a document's metadata keeps.
var docMetadataFields = []string{"id", "doc_id", "chunk_id", "title", "source", "artifact_id", "section", "chunk_index"}

// NewDoc builds a document from text (or any value) or a table, with
// opts' fields over it.
func NewDoc(input, opts leia.Value) *leia.Table {
	doc := leia.NewTable(0, 12)
	doc.SetStr(docMarker, leia.True)
	if t := input.Table(); t != nil {
		t.Iter(func(k, v leia.Value) bool {
			doc.Set(k, v)
			return true
		})
	} else {
		doc.SetStr("text", leia.String(text(input)))
	}
	if o := opts.Table(); o != nil {
		o.Iter(func(k, v leia.Value) bool {
			doc.Set(k, v)
			return true
		})
	}
	if doc.GetStr("text").IsNil() {
		doc.SetStr("text", leia.String(jsonText(input)))
	}
	if doc.GetStr("artifact_id").IsNil() {
		doc.SetStr("artifact_id", doc.GetStr("id"))
	}
	dv := leia.TableValue(doc)
	if doc.GetStr("metadata").IsNil() {
		doc.SetStr("metadata", docMetadata(dv))
	}
	if doc.GetStr("citation").IsNil() {
		doc.SetStr("citation", leia.TableValue(citation(dv)))
	}
	return doc
}

func docMetadata(doc leia.Value) leia.Value {
	meta := leia.NewTable(0, 8)
	for _, k := range docMetadataFields {
		if v := Field(doc, k); !v.IsNil() {
			meta.SetStr(k, v)
		}
	}
	if tags := Field(doc, "tags"); !tags.IsNil() {
		meta.SetStr("tags", tags)
	}
	return leia.TableValue(meta)
}

// citation is a document's (or the first document's) citation: its
// identity fields, doc_id (defaulting to id), chunk_id (defaulting to
// id) and a snippet of its text.
func citation(input leia.Value) *leia.Table {
	c := leia.NewTable(0, 10)
	doc := input
	if input.Table() == nil {
		docs := docsOf(input)
		if len(docs) == 0 {
			c.SetStr("text", leia.String(text(input)))
			return c
		}
		doc = leia.TableValue(docs[0])
	}
	for _, k := range []string{"id", "chunk_id", "title", "source", "artifact_id", "section", "score"} {
		if v := Field(doc, k); !v.IsNil() {
			c.SetStr(k, v)
		}
	}
	docID := Field(doc, "doc_id")
	if docID.IsNil() {
		docID = Field(doc, "id")
	}
	if !docID.IsNil() {
		c.SetStr("doc_id", docID)
	}
	if Field(doc, "chunk_id").IsNil() && !Field(doc, "id").IsNil() {
		c.SetStr("chunk_id", Field(doc, "id"))
	}
	if s := text(Field(doc, "text")); s != "" {
		c.SetStr("snippet", leia.String(snippet(s, snippetBytes)))
	}
	return c
}

func snippet(s string, limit int) string {
	s = strings.TrimSpace(s)
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return strings.TrimSpace(s[:cut]) + "..."
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// docsOf lists the documents a value stands for: a document itself, a
// collection's (or wrapper's) docs, a list's items (non-documents made
// into documents), a single non-table value as one document.
func docsOf(v leia.Value) []*leia.Table { return docsAt(v, 0) }

func docsAt(v leia.Value, depth int) []*leia.Table {
	if v.IsNil() {
		return nil
	}
	t := v.Table()
	if t == nil {
		return []*leia.Table{NewDoc(v, leia.Nil)}
	}
	if t.GetStr(docMarker).Truthy() {
		return []*leia.Table{t}
	}
	if d := t.GetStr("docs"); d.Table() != nil && depth < maxDocsDepth {
		return docsAt(d, depth+1)
	}
	var out []*leia.Table
	for _, it := range Items(v) {
		if it.IsNil() {
			continue
		}
		if it.Table() != nil && it.Table().GetStr(docMarker).Truthy() {
			out = append(out, it.Table())
			continue
		}
		out = append(out, NewDoc(it, leia.Nil))
	}
	return out
}

func docList(docs []*leia.Table) *leia.Table {
	list := leia.NewTable(len(docs), 0)
	for _, d := range docs {
		list.Append(leia.TableValue(d))
	}
	return list
}

// NewCollection builds {__llm_collection, docs, count}.
func NewCollection(input leia.Value) *leia.Table {
	docs := docsOf(input)
	c := leia.NewTable(0, 4)
	c.SetStr(collectionMarker, leia.True)
	c.SetStr("docs", leia.TableValue(docList(docs)))
	c.SetStr("count", leia.Int(int64(len(docs))))
	return c
}

// chunks splits documents into one chunk per section (a sections map,
// in key order, or a list of {name, text}), or one chunk per document.
func chunks(input, opts leia.Value) *leia.Table {
	var out []*leia.Table
	for _, doc := range docsOf(input) {
		dv := leia.TableValue(doc)
		secs := doc.GetStr("sections")
		if secs.Table() == nil {
			out = append(out, chunkDoc(dv, "", text(doc.GetStr("text")), 1, opts))
			continue
		}
		n := 0
		for _, s := range sectionEntries(secs) {
			n++
			out = append(out, chunkDoc(dv, s.name, s.text, n, opts))
		}
	}
	c := NewCollection(leia.TableValue(docList(out)))
	c.SetStr("kind", leia.String("chunks"))
	return c
}

type sectionEntry struct{ name, text string }

// sectionEntries reads a sections field: a list of {name, text} tables
// (unnamed ones are sectionN), else a map read in key order.
func sectionEntries(secs leia.Value) []sectionEntry {
	var out []sectionEntry
	for i, it := range Items(secs) {
		if it.Table() == nil {
			continue
		}
		name := text(Field(it, "name"))
		if name == "" {
			name = fmt.Sprintf("section%d", i+1)
		}
		out = append(out, sectionEntry{name, sectionText(Field(it, "text"))})
	}
	if len(out) > 0 {
		return out
	}
	keys := Keys(secs)
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, sectionEntry{k, sectionText(Field(secs, k))})
	}
	return out
}

func sectionText(v leia.Value) string {
	if s := text(v); s != "" {
		return s
	}
	return jsonText(v)
}

func chunkDoc(doc leia.Value, section, body string, index int, opts leia.Value) *leia.Table {
	c := Clone(doc)
	docID := text(Field(doc, "id"))
	if docID == "" {
		docID = fmt.Sprintf("doc%d", index)
	}
	chunkID := text(Field(doc, "chunk_id"))
	if chunkID == "" {
		if section != "" {
			chunkID = docID + "#" + section
		} else {
			chunkID = fmt.Sprintf("%s#chunk%d", docID, index)
		}
	}
	if o := opts.Table(); o != nil {
		o.Iter(func(k, v leia.Value) bool {
			c.Set(k, v)
			return true
		})
	}
	c.SetStr(docMarker, leia.True)
	c.SetStr("doc_id", leia.String(docID))
	c.SetStr("chunk_id", leia.String(chunkID))
	c.SetStr("id", leia.String(chunkID))
	c.SetStr("chunk_index", leia.Int(int64(index)))
	c.SetStr("text", leia.String(body))
	if section != "" {
		c.SetStr("section", leia.String(section))
	}
	if c.GetStr("artifact_id").IsNil() {
		c.SetStr("artifact_id", Field(doc, "artifact_id"))
	}
	cv := leia.TableValue(c)
	c.SetStr("metadata", docMetadata(cv))
	c.SetStr("citation", leia.TableValue(citation(cv)))
	return c
}

// corpus is a collection marked as a local corpus (kind local_corpus);
// opts fields are kept; reset empties it.
func corpus(input, opts leia.Value) *leia.Table {
	c := NewCollection(input)
	c.SetStr(corpusMarker, leia.True)
	c.SetStr("kind", leia.String("local_corpus"))
	c.SetStr("reset", leia.False)
	if o := opts.Table(); o != nil {
		o.Iter(func(k, v leia.Value) bool {
			c.Set(k, v)
			return true
		})
		if o.GetStr("reset").Truthy() {
			c.SetStr("docs", leia.TableValue(newList()))
			c.SetStr("count", leia.Int(0))
			c.SetStr("reset", leia.True)
		}
	}
	return c
}

// corpusAdd is a new corpus holding the old one's documents and the
// added ones (the old corpus is not changed).
func corpusAdd(old, input leia.Value) *leia.Table {
	docs := append(docsOf(old), docsOf(input)...)
	out := corpus(leia.TableValue(docList(docs)), leia.Nil)
	if o := old.Table(); o != nil {
		o.Iter(func(k, v leia.Value) bool {
			switch text(k) {
			case "docs", "count", "reset":
				return true
			}
			out.Set(k, v)
			return true
		})
	}
	out.SetStr("reset", leia.False)
	return out
}

// NewContext builds a context wrapper (label "Context" for llm.context,
// "Evidence" for llm.evidence unless opts.label says otherwise).
func NewContext(input, opts leia.Value, defaultLabel string) *leia.Table {
	ctx := leia.NewTable(1, 8)
	ctx.SetStr(contextMarker, leia.True)
	docs := docsOf(input)
	if len(docs) == 0 && !input.IsNil() {
		docs = []*leia.Table{NewDoc(input, leia.Nil)}
	}
	label := optString(opts, "label", defaultLabel)
	role := optString(opts, "role", "user")
	if o := opts.Table(); o != nil {
		o.Iter(func(k, v leia.Value) bool {
			ctx.Set(k, v)
			return true
		})
	}
	body := contextText(label, docs)
	if override := ctx.GetStr("text"); !override.IsNil() {
		body = text(override)
	}
	msg := Message(role, body)
	ctx.SetStr("docs", leia.TableValue(docList(docs)))
	ctx.SetStr("text", leia.String(body))
	ctx.SetStr("message", msg)
	ctx.SetInt(1, msg)
	return ctx
}

func contextText(label string, docs []*leia.Table) string {
	var b strings.Builder
	if label == "" {
		label = "Context"
	}
	b.WriteString(label)
	b.WriteString(":")
	for i, doc := range docs {
		id := text(doc.GetStr("id"))
		if id == "" {
			id = fmt.Sprintf("doc%d", i+1)
		}
		b.WriteString("\n[" + id + "]")
		if s := text(doc.GetStr("title")); s != "" {
			b.WriteString(" " + s)
		}
		if s := text(doc.GetStr("section")); s != "" {
			b.WriteString(" section " + s)
		}
		if s := text(doc.GetStr("source")); s != "" {
			b.WriteString("\nSource: " + s)
		}
		if s := text(doc.GetStr("artifact_id")); s != "" {
			b.WriteString("\nArtifact: " + s)
		}
		if s := text(doc.GetStr("text")); s != "" {
			b.WriteString("\n" + s)
		}
	}
	return b.String()
}

// queryTerms are a query's unique lower-case letter/digit runs in order.
func queryTerms(q string) []string {
	seen := map[string]bool{}
	var out []string
	for _, term := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if !seen[term] {
			seen[term] = true
			out = append(out, term)
		}
	}
	return out
}

func score(doc *leia.Table, terms []string) int64 {
	if len(terms) == 0 {
		return 0
	}
	var parts []string
	for _, k := range []string{"id", "title", "source", "artifact_id", "doc_id", "chunk_id", "section", "text"} {
		parts = append(parts, text(doc.GetStr(k)))
	}
	for _, k := range []string{"tags", "metadata", "citation"} {
		parts = append(parts, jsonText(doc.GetStr(k)))
	}
	hay := strings.ToLower(strings.Join(parts, "\n"))
	var n int64
	for _, t := range terms {
		n += int64(strings.Count(hay, t))
	}
	return n
}

// Retrieve ranks a collection's documents against a query; opts.limit
// caps the matches, opts.label labels the context text.
func Retrieve(coll leia.Value, query string, opts leia.Value) *leia.Table {
	docs := docsOf(coll)
	terms := queryTerms(query)
	type ranked struct {
		doc   *leia.Table
		score int64
		id    string
	}
	rs := make([]ranked, len(docs))
	for i, d := range docs {
		rs[i] = ranked{d, score(d, terms), text(d.GetStr("id"))}
	}
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].score == rs[j].score {
			return rs[i].id < rs[j].id
		}
		return rs[i].score > rs[j].score
	})
	limit := len(rs)
	if n := IntOf(Field(opts, "limit")); n > 0 && n < int64(limit) {
		limit = int(n)
	}
	matches := leia.NewTable(limit, 0)
	for _, r := range rs[:limit] {
		m := Clone(leia.TableValue(r.doc))
		m.SetStr("score", leia.Int(r.score))
		m.SetStr("citation", leia.TableValue(citation(leia.TableValue(m))))
		matches.Append(leia.TableValue(m))
	}
	ctx := NewContext(leia.TableValue(matches), opts, optString(opts, "label", "Context"))
	ctx.SetStr("query", leia.String(query))
	ctx.SetStr("matches", leia.TableValue(matches))
	return ctx
}

// isCancelContext reports a cancellation context object (what
// context.withCancel makes: an err function and a done channel), which
// a request's context field may hold instead of retrieval context.
func isCancelContext(v leia.Value) bool {
	return Field(v, "err").IsFunction() && Field(v, "done").Kind() == leia.KindChannel
}

// isMessage reports a normalized message table (a role and a text, or a
// role with tool-call fields).
func isMessage(v leia.Value) bool {
	return Field(v, "role").Kind() == leia.KindString
}

// ContextMessages are the messages a request's context or evidence value
// stands for: a wrapper's message, a message itself, a list of messages,
// documents or collections as a "Context" wrapper, anything else as one
// user message of its (JSON) text. A cancellation context gives none.
func ContextMessages(v leia.Value) []leia.Value { return contextMessagesAt(v, 0) }

func contextMessagesAt(v leia.Value, depth int) []leia.Value {
	if v.IsNil() || isCancelContext(v) {
		return nil
	}
	t := v.Table()
	if t == nil {
		return []leia.Value{Message("user", text(v))}
	}
	if m := t.GetStr("message"); m.Table() != nil {
		return []leia.Value{m}
	}
	if t.GetStr("role").Kind() == leia.KindString && t.GetStr("text").Kind() == leia.KindString {
		return []leia.Value{v}
	}
	if t.GetStr(contextMarker).Truthy() {
		return []leia.Value{Message("user", text(t.GetStr("text")))}
	}
	if t.GetStr(docMarker).Truthy() || t.GetStr(collectionMarker).Truthy() || t.GetStr("docs").Table() != nil {
		if depth >= maxDocsDepth {
			return nil
		}
		return contextMessagesAt(leia.TableValue(NewContext(v, leia.Nil, "Context")), depth+1)
	}
	items := Items(v)
	if len(items) > 0 {
		msgs := make([]leia.Value, 0, len(items))
		for _, it := range items {
			if !isMessage(it) {
				msgs = nil
				break
			}
			msgs = append(msgs, it)
		}
		if msgs != nil {
			return msgs
		}
		if depth < maxDocsDepth {
			return contextMessagesAt(leia.TableValue(NewContext(v, leia.Nil, "Context")), depth+1)
		}
	}
	return []leia.Value{Message("user", jsonText(v))}
}

// ApplyContext appends the messages of a request's context, then its
// evidence, after the request's messages (a new list; the script's list
// is not changed). A request without either is left alone.
func ApplyContext(opts *leia.Table) {
	if opts == nil {
		return
	}
	var extra []leia.Value
	for _, k := range []string{"context", "evidence"} {
		extra = append(extra, ContextMessages(opts.GetStr(k))...)
	}
	if len(extra) == 0 {
		return
	}
	msgs := append(ExpandMessages(opts.GetStr("messages")), extra...)
	opts.SetStr("messages", List(msgs...))
}

// ExpandMessages is a messages list with every context or evidence
// wrapper in it replaced by its message.
func ExpandMessages(list leia.Value) []leia.Value {
	items := Items(list)
	out := make([]leia.Value, 0, len(items))
	for _, m := range items {
		if !isMessage(m) && Field(m, contextMarker).Truthy() {
			if msg := Field(m, "message"); msg.Table() != nil {
				m = msg
			}
		}
		out = append(out, m)
	}
	return out
}

// expandRequest is the request hook of this family: wrappers in the
// messages list become their messages, then context and evidence are
// appended.
func expandRequest(_ *Runtime, _ *leia.Thread, opts *leia.Table) {
	if msgs := opts.GetStr("messages"); msgs.Table() != nil {
		for _, m := range Items(msgs) {
			if !isMessage(m) && Field(m, contextMarker).Truthy() {
				opts.SetStr("messages", List(ExpandMessages(msgs)...))
				break
			}
		}
	}
	ApplyContext(opts)
}

// retrievalFamily is the llm module's natives from this file (see families).
func retrievalFamily(rt *Runtime) map[string]leia.NativeFunc {
	m := map[string]leia.NativeFunc{}
	aliases(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if len(a) < 1 {
			return nil, fmt.Errorf("bad argument #1 to 'llm.doc' (value expected)")
		}
		return t.Ret1(leia.TableValue(NewDoc(a[0], leia.Arg(a, 1)))), nil
	}, "doc", "document")
	aliases(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if len(a) < 1 {
			return nil, fmt.Errorf("bad argument #1 to 'llm.collection' (documents expected)")
		}
		return t.Ret1(leia.TableValue(NewCollection(a[0]))), nil
	}, "collection", "docs")
	aliases(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if len(a) < 1 {
			return nil, fmt.Errorf("bad argument #1 to 'llm.chunks' (documents expected)")
		}
		return t.Ret1(leia.TableValue(chunks(a[0], leia.Arg(a, 1)))), nil
	}, "chunks", "chunk")
	aliases(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if len(a) < 1 {
			return nil, fmt.Errorf("bad argument #1 to 'llm.citation' (document expected)")
		}
		return t.Ret1(leia.TableValue(citation(a[0]))), nil
	}, "citation", "cite")
	m["corpus"] = func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		return t.Ret1(leia.TableValue(corpus(leia.Arg(a, 0), leia.Arg(a, 1)))), nil
	}
	m["corpus_add"] = func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if len(a) < 2 {
			return nil, fmt.Errorf("bad argument to 'llm.corpus_add' (corpus, docs expected)")
		}
		return t.Ret1(leia.TableValue(corpusAdd(a[0], a[1]))), nil
	}
	m["corpus_reset"] = func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		opts := leia.NewTable(0, 2)
		if o := leia.Arg(a, 0).Table(); o != nil {
			o.Iter(func(k, v leia.Value) bool {
				opts.Set(k, v)
				return true
			})
		}
		opts.SetStr("reset", leia.True)
		return t.Ret1(leia.TableValue(corpus(leia.Nil, leia.TableValue(opts)))), nil
	}
	wrapper := func(name, label string) leia.NativeFunc {
		return func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
			if len(a) < 1 {
				return nil, fmt.Errorf("bad argument #1 to 'llm.%s' (documents or text expected)", name)
			}
			return t.Ret1(leia.TableValue(NewContext(a[0], leia.Arg(a, 1), label))), nil
		}
	}
	m["context"] = wrapper("context", "Context")
	m["evidence"] = wrapper("evidence", "Evidence")
	aliases(m, func(t *leia.Thread, a []leia.Value) ([]leia.Value, error) {
		if len(a) < 2 {
			return nil, fmt.Errorf("bad argument to 'llm.retrieve' (collection, query expected)")
		}
		return t.Ret1(leia.TableValue(Retrieve(a[0], text(a[1]), leia.Arg(a, 2)))), nil
	}, "retrieve", "search")
	return m
}

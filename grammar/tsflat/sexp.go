package tsflat

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// cStackSafeDepth is the deepest tree handed to ts_node_string, which
// recurses once per level on the C stack (a few hundred bytes a level; the
// stack is 8 MiB): about 48,000 levels crashed the process.
const cStackSafeDepth = 4096

// SexpOf renders the tree at root as tree-sitter's S-expression. A tree of
// ordinary depth is printed by ts_node_string itself; a deeper one, which
// would overflow the C stack, by Sexp.
func SexpOf(root *sitter.Node, names *Names, src []byte) string {
	recs := Walk(root, nil)
	if depth, _ := Depth(recs); depth <= cStackSafeDepth {
		return root.ToSexp()
	}
	return Sexp(recs, names, src)
}

// Sexp renders records (a whole tree, as Walk returns it) as the
// S-expression tree-sitter's ts_node_string prints: named nodes and
// MISSING nodes in parentheses, field names before the children they
// label, "(UNEXPECTED c)" for an ERROR node without children (hidden
// ones included: one holding only hidden nodes prints as "(ERROR)"). Unlike
// ts_node_string, which recurses once per level in C and overflows the
// stack on deeply nested input, it is a loop over the records: its stack
// is a Go slice, so any depth prints. The one difference: the character
// after UNEXPECTED is the first one of the node in src, where
// ts_node_string prints the lexer's lookahead when the error began, which
// the records do not carry (it can be the whitespace before the node).
func Sexp(recs []Record, names *Names, src []byte) string {
	if len(recs) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(len(recs) * 8)
	type open struct {
		rec     uint32
		printed bool
	}
	stack := make([]open, 0, 64)
	for i := range recs {
		r := &recs[i]
		for len(stack) > 0 && stack[len(stack)-1].rec != r.Parent {
			if stack[len(stack)-1].printed {
				b.WriteByte(')')
			}
			stack = stack[:len(stack)-1]
		}
		named := r.Flags&Named != 0
		missing := r.Flags&Missing != 0
		printed := named || missing
		if printed {
			if i > 0 {
				b.WriteByte(' ')
				if f := names.Field(r.Field); f != "" && r.Flags&Extra == 0 {
					b.WriteString(f)
					b.WriteString(": ")
				}
			}
			switch {
			case r.Flags&ErrorLeaf != 0 && r.EndByte > r.StartByte:
				b.WriteString("(UNEXPECTED ")
				b.WriteString(unexpectedChar(src, int(r.StartByte)))
			case missing:
				b.WriteString("(MISSING ")
				if named {
					b.WriteString(names.Symbol(r.Symbol))
				} else {
					b.WriteString(`"` + names.Symbol(r.Symbol) + `"`)
				}
			default:
				b.WriteByte('(')
				b.WriteString(names.Symbol(r.Symbol))
			}
		} else if i == 0 {
			// An anonymous root, which a grammar's start rule never is.
			b.WriteString(`("` + names.Symbol(r.Symbol) + `")`)
		}
		stack = append(stack, open{rec: uint32(i), printed: printed})
	}
	for j := len(stack) - 1; j >= 0; j-- {
		if stack[j].printed {
			b.WriteByte(')')
		}
	}
	return b.String()
}

// unexpectedChar renders the character at offset as tree-sitter's
// ts_subtree__write_char_to_string does.
func unexpectedChar(src []byte, offset int) string {
	if offset < 0 || offset >= len(src) {
		return "INVALID"
	}
	r, n := utf8.DecodeRune(src[offset:])
	if r == utf8.RuneError && n <= 1 {
		return "INVALID"
	}
	switch r {
	case 0:
		return `'\0'`
	case '\n':
		return `'\n'`
	case '\t':
		return `'\t'`
	case '\r':
		return `'\r'`
	}
	if r > 0 && r < 128 && r >= 0x20 && r < 0x7f {
		return "'" + string(r) + "'"
	}
	return strconv.Itoa(int(r))
}

// Depth returns the depth of the deepest record (the root is at depth 1)
// and that record's index. It is one pass over the records.
func Depth(recs []Record) (max int, at int) {
	d := Nesting(recs, nil)
	return d.Depth, d.DepthAt
}

// Depths is what Nesting measures.
type Depths struct {
	// Depth is the nesting depth of the deepest record, not counting
	// chain links; DepthAt is that record's index (-1 without records).
	Depth, DepthAt int
	// Chain is the longest run of chain links (a node of a chain kind
	// directly under a node of the same kind); ChainAt is the index of
	// its last record.
	Chain, ChainAt int
}

// Nesting measures the nesting of records in one pass. A record of a kind
// in chains directly under a record of the same kind is a chain link: it
// adds to Chain, not to Depth. Grammars nest list-like constructs
// (`A | B | C` as binary union_type nodes) that a lowering flattens
// without recursion, so their length is bounded separately from real
// nesting.
func Nesting(recs []Record, chains map[uint16]bool) Depths {
	out := Depths{DepthAt: -1, ChainAt: -1}
	if len(recs) == 0 {
		return out
	}
	scratch := nestingScratch.Get().(*[]nestingLevel)
	defer nestingScratch.Put(scratch)
	if cap(*scratch) < len(recs) {
		*scratch = make([]nestingLevel, len(recs))
	}
	level := (*scratch)[:len(recs)]
	for i := range recs {
		d, c := int32(1), int32(0)
		if p := recs[i].Parent; p != NoParent && int(p) < i {
			if sym := recs[i].Symbol; chains[sym] && recs[p].Symbol == sym {
				d, c = level[p].depth, level[p].chain+1
			} else {
				d = level[p].depth + 1
			}
		}
		level[i] = nestingLevel{d, c}
		if int(d) > out.Depth {
			out.Depth, out.DepthAt = int(d), i
		}
		if int(c) > out.Chain {
			out.Chain, out.ChainAt = int(c), i
		}
	}
	return out
}

// nestingLevel is a record's depth and chain length, as Nesting counts
// them.
type nestingLevel struct{ depth, chain int32 }

// nestingScratch holds Nesting's per-record levels between calls: a
// check measures every file it parses, and the two arrays it made for
// each were a twentieth of the bytes a check of many files allocated.
var nestingScratch = sync.Pool{New: func() any { return new([]nestingLevel) }}

// Crossing says where records first go past a nesting limit: no more than
// maxDepth levels of nesting and no chain longer than maxChain links (see
// Nesting). ok is false when the records are within both limits; else at
// is the first record past the limit on the path to the deepest one,
// measured is the depth or chain length found and limit the one crossed.
func Crossing(recs []Record, chains map[uint16]bool, maxDepth, maxChain int) (at, measured, limit int, ok bool) {
	d := Nesting(recs, chains)
	switch {
	case d.Depth > maxDepth:
		i := d.DepthAt
		// Walk up to the ancestor at depth maxDepth+1.
		for n := d.Depth; n > maxDepth+1 && recs[i].Parent != NoParent; {
			p := int(recs[i].Parent)
			if !(chains[recs[i].Symbol] && recs[p].Symbol == recs[i].Symbol) {
				n--
			}
			i = p
		}
		return i, d.Depth, maxDepth, true
	case d.Chain > maxChain:
		i := d.ChainAt
		for n := d.Chain; n > maxChain+1 && recs[i].Parent != NoParent; n-- {
			i = int(recs[i].Parent)
		}
		return i, d.Chain, maxChain, true
	}
	return 0, 0, 0, false
}

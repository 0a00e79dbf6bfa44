package difftest

import "math/rand"

// snippets are inserted by RandomEdits and Mutate: brackets, quotes,
// separators and keywords common to the tested languages.
var snippets = []string{
	"(", ")", "{", "}", "[", "]", "\"", "'", ",", ";", ":", "=", "\n", " ", "\t", "#", "//", "/*", "*/",
	"--", "\\", "$", "x", "1", "0x1f", "é", "if ", "end", "func ", "def ", "then ", "return ", "${", "@", ".",
}

// RandomEdits returns n edits to apply to text one after another. Each
// deletes, inserts or replaces a few bytes at a random place; inserted bytes
// are snippets or copies of nearby text, so edits look like typing.
func RandomEdits(rng *rand.Rand, text []byte, n int) []Edit {
	cur := append([]byte(nil), text...)
	edits := make([]Edit, 0, n)
	for range n {
		start := rng.Intn(len(cur) + 1)
		end := start
		var ins []byte
		switch rng.Intn(4) {
		case 0: // delete
			end = min(len(cur), start+1+rng.Intn(12))
		case 1: // insert a snippet
			ins = []byte(snippets[rng.Intn(len(snippets))])
		case 2: // replace with a snippet
			end = min(len(cur), start+1+rng.Intn(4))
			ins = []byte(snippets[rng.Intn(len(snippets))])
		default: // paste a copy of other text
			if len(cur) > 0 {
				from := rng.Intn(len(cur))
				ins = append([]byte(nil), cur[from:min(len(cur), from+1+rng.Intn(40))]...)
			}
		}
		edits = append(edits, Edit{Start: start, End: end, Insert: ins})
		next := make([]byte, 0, len(cur)+len(ins))
		next = append(append(append(next, cur[:start]...), ins...), cur[end:]...)
		cur = next
	}
	return edits
}

// Mutate returns a copy of text with 1 to 8 random byte-level changes:
// flipped bits, random bytes (including NUL and invalid UTF-8) inserted,
// spans deleted or duplicated, snippets inserted.
func Mutate(rng *rand.Rand, text []byte) []byte {
	out := append([]byte(nil), text...)
	for range 1 + rng.Intn(8) {
		pos := rng.Intn(len(out) + 1)
		switch rng.Intn(5) {
		case 0:
			if pos < len(out) {
				out[pos] ^= 1 << rng.Intn(8)
			}
		case 1:
			out = append(out[:pos], append([]byte{byte(rng.Intn(256))}, out[pos:]...)...)
		case 2:
			end := min(len(out), pos+1+rng.Intn(16))
			out = append(out[:pos], out[end:]...)
		case 3:
			end := min(len(out), pos+1+rng.Intn(64))
			dup := append([]byte(nil), out[pos:end]...)
			out = append(out[:end], append(dup, out[end:]...)...)
		default:
			out = append(out[:pos], append([]byte(snippets[rng.Intn(len(snippets))]), out[pos:]...)...)
		}
	}
	return out
}

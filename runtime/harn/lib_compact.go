package harn

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Context helpers: estimate_tokens(messages) is the usual characters / 4
// estimate over the messages' string contents; microcompact(text,
// max_chars) shortens a long tool output to about max_chars by keeping its
// head and tail at line boundaries, and, when the output has diagnostic
// lines (errors, failures, file:line positions), keeps up to 32 of them in
// between so a compile or test failure survives the cut.

func estimateTokens(messages []Value) int64 {
	var n int64
	for _, m := range messages {
		if m.k != KindDict {
			continue
		}
		if c, ok := m.r.(*Dict).Get("content"); ok && c.k == KindString {
			n += int64(len(c.r.(string)))
		}
	}
	return n / 4
}

// isDiagnosticLine is a line worth keeping from a compacted output.
func isDiagnosticLine(line string) bool {
	t := strings.TrimSpace(line)
	lower := strings.ToLower(t)
	if strings.Contains(t, "FAIL") || strings.Contains(t, "panic") || strings.Contains(t, "Panic") {
		return true
	}
	if strings.Contains(lower, " error ") || strings.HasPrefix(lower, "error:") || strings.HasPrefix(lower, "warning:") ||
		strings.HasPrefix(lower, "note:") || strings.Contains(lower, "panic:") {
		return true
	}
	// file:line positions with an error-like word.
	i := strings.IndexByte(t, ':')
	if i < 0 || i+1 >= len(t) || t[i+1] < '0' || t[i+1] > '9' {
		return false
	}
	for _, w := range []string{"error", "undefined", "expected", "got"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	for _, w := range []string{"cannot find", "not found", "no such", "unresolved", "missing", "declared but not used", "unused", "mismatch"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// headTo is the longest prefix of s of at most n bytes that ends after a
// newline (or at a character boundary when s has no newline there).
func headTo(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i >= 0 {
		return s[:i+1]
	}
	return s[:n]
}

// tailFrom is the suffix of s starting at the first line that begins at
// or after byte n.
func tailFrom(s string, n int) string {
	if n <= 0 {
		return s
	}
	for n < len(s) && !utf8.RuneStart(s[n]) {
		n++
	}
	if n >= len(s) {
		return ""
	}
	if i := strings.IndexByte(s[n:], '\n'); i >= 0 && n+i+1 < len(s) {
		return s[n+i+1:]
	}
	return s[n:]
}

func microcompact(out string, maxChars int) string {
	if len(out) <= maxChars || maxChars < 200 {
		return out
	}
	var diags []string
	for _, line := range strings.Split(out, "\n") {
		if len(diags) == 32 {
			break
		}
		if isDiagnosticLine(line) {
			diags = append(diags, line)
		}
	}
	if len(diags) > 0 {
		joined := strings.Join(diags, "\n")
		keep := max(maxChars-len(joined)-64, 0) / 2
		if keep >= 80 && len(out) > 2*keep {
			return headTo(out, keep) + "\n\n[diagnostic lines preserved]\n" + joined +
				"\n\n[... output compacted ...]\n\n" + tailFrom(out, len(out)-keep)
		}
	}
	keep := maxChars / 2
	head, tail := headTo(out, keep), tailFrom(out, len(out)-keep)
	snipped := max(len(out)-len(head)-len(tail), 0)
	return head + "\n\n[... " + strconv.Itoa(snipped) + " characters snipped ...]\n\n" + tail
}

func installCompact(lib *Library) {
	lib.Builtin("estimate_tokens", func(c *Call, args []Value) (Value, error) {
		if v := Arg(args, 0); v.k == KindList {
			return Int(estimateTokens(v.r.(*List).items)), nil
		}
		return Int(0), nil
	})
	lib.Builtin("microcompact", func(c *Call, args []Value) (Value, error) {
		n := 20_000
		if v := Arg(args, 1); v.k == KindInt && int64(v.n) >= 0 {
			n = int(min(int64(v.n), 1<<40))
		}
		return Str(microcompact(Display(Arg(args, 0)), n)), nil
	})
}

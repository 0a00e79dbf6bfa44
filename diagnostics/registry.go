package diagnostics

import (
	"bufio"
	"embed"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// CodeInfo documents one diagnostic code.
type CodeInfo struct {
	// Code is the stable identifier, e.g. "HARN-TYP-036".
	Code string
	// Severity is the default severity the product reports it with.
	Severity Severity
	// Summary is a one-line description (no trailing period).
	Summary string
	// Title is the heading of the explanation page.
	Title string
	// Explanation is the page in Markdown: what the code means, why it
	// matters, a wrong and a right example.
	Explanation string
	// Wrong and Right are the examples extracted from the page's
	// "## Wrong" and "## Right" sections (the first fenced block of each).
	Wrong, Right Example
	// Rules are the names of the lint rule that reports the code (its
	// name first, then upstream's other names for it), from the front
	// matter's `rule:` line; empty for a code no lint rule reports.
	// harn.toml and --select entries may name a code so.
	Rules []string
}

// Example is a fenced code block of an explanation page.
type Example struct {
	// Lang is the fence's info string, e.g. "harn".
	Lang string
	Code string
}

// explainFS holds one page per code: explain/<CODE>.md, starting with a
// front matter block of "key: value" lines (code, severity, summary; rule
// on a lint rule's code) between "---" lines, then the Markdown
// explanation.
//
//go:embed explain/*.md
var explainFS embed.FS

var (
	registryOnce sync.Once
	registry     map[string]CodeInfo
	registryErr  error
)

// codePattern is the shape of every code the product emits, compiled at
// its first use: every process imports this package, few check a code's
// shape.
var codePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[A-Z]+-[A-Z]+-[0-9]{3}|LEIA[0-9]{4})$`)
})

// CodePattern reports whether s has the shape of a diagnostic code.
func CodePattern(s string) bool { return codePattern().MatchString(s) }

func loadRegistry() {
	registry = map[string]CodeInfo{}
	entries, err := fs.ReadDir(explainFS, "explain")
	if err != nil {
		registryErr = err
		return
	}
	for _, e := range entries {
		data, err := explainFS.ReadFile("explain/" + e.Name())
		if err != nil {
			registryErr = err
			return
		}
		info, err := parsePage(string(data))
		if err != nil {
			registryErr = fmt.Errorf("explain/%s: %w", e.Name(), err)
			return
		}
		if info.Code+".md" != e.Name() {
			registryErr = fmt.Errorf("explain/%s: front matter names code %q", e.Name(), info.Code)
			return
		}
		registry[info.Code] = info
	}
}

func parsePage(page string) (CodeInfo, error) {
	var info CodeInfo
	rest, ok := strings.CutPrefix(page, "---\n")
	if !ok {
		return info, fmt.Errorf("missing front matter")
	}
	front, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return info, fmt.Errorf("unterminated front matter")
	}
	for _, line := range strings.Split(front, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return info, fmt.Errorf("front matter line %q is not key: value", line)
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "code":
			info.Code = v
		case "severity":
			s, ok := ParseSeverity(v)
			if !ok {
				return info, fmt.Errorf("unknown severity %q", v)
			}
			info.Severity = s
		case "summary":
			info.Summary = v
		case "rule":
			for _, n := range strings.Split(v, ",") {
				if n = strings.TrimSpace(n); n != "" {
					info.Rules = append(info.Rules, n)
				}
			}
		default:
			return info, fmt.Errorf("unknown front matter key %q", k)
		}
	}
	if !CodePattern(info.Code) || info.Summary == "" {
		return info, fmt.Errorf("front matter needs a well-formed code and a summary")
	}
	info.Explanation = strings.TrimSpace(body) + "\n"
	sc := bufio.NewScanner(strings.NewReader(info.Explanation))
	section := ""
	var fence *Example
	for sc.Scan() {
		line := sc.Text()
		switch {
		case fence != nil && strings.HasPrefix(line, "```"):
			if section == "wrong" && info.Wrong.Code == "" {
				info.Wrong = *fence
			} else if section == "right" && info.Right.Code == "" {
				info.Right = *fence
			}
			fence = nil
		case fence != nil:
			fence.Code += line + "\n"
		case strings.HasPrefix(line, "# ") && info.Title == "":
			info.Title = strings.TrimPrefix(line, "# ")
		case strings.HasPrefix(line, "## "):
			section = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(line, "## ")))
		case strings.HasPrefix(line, "```"):
			fence = &Example{Lang: strings.TrimSpace(strings.TrimPrefix(line, "```"))}
		}
	}
	if info.Title == "" {
		return info, fmt.Errorf("explanation has no \"# \" title")
	}
	if info.Wrong.Code == "" || info.Right.Code == "" {
		return info, fmt.Errorf("explanation needs a fenced example under both \"## Wrong\" and \"## Right\"")
	}
	return info, nil
}

// RegistryError reports a malformed explanation page; nil when every page
// loaded. Tests call it; Lookup and Codes treat a broken page as absent.
func RegistryError() error {
	registryOnce.Do(loadRegistry)
	return registryErr
}

// Lookup returns the documentation of code.
func Lookup(code string) (CodeInfo, bool) {
	registryOnce.Do(loadRegistry)
	info, ok := registry[code]
	return info, ok
}

// RuleCodes returns the codes the lint rule called name (or one of its
// other names) reports, in sorted order; nil for a name no rule has. One
// name may be a rule of both languages (naming-convention).
func RuleCodes(name string) []string {
	var out []string
	for _, info := range Codes() {
		if slices.Contains(info.Rules, name) {
			out = append(out, info.Code)
		}
	}
	return out
}

// Codes returns every registered code in sorted order.
func Codes() []CodeInfo {
	registryOnce.Do(loadRegistry)
	out := make([]CodeInfo, 0, len(registry))
	for _, info := range registry {
		out = append(out, info)
	}
	slices.SortFunc(out, func(a, b CodeInfo) int { return strings.Compare(a.Code, b.Code) })
	return out
}

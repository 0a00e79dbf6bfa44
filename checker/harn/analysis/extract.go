package analysis

import (
	"strings"
)

// ExtractDoc returns the documentation of rule name from the source of a
// rule package's doc.go: the text of its package comment after the
// heading "# Rule name", comment markers removed. The first line is the
// title. It panics when the heading is missing, so a rule cannot ship
// undocumented (every rule's test loads it).
func ExtractDoc(src, name string) string {
	var lines []string
	for _, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(l, "package ") {
			break
		}
		t := strings.TrimPrefix(l, "//")
		lines = append(lines, strings.TrimPrefix(t, " "))
	}
	heading := "# Rule " + name
	for i, l := range lines {
		if strings.TrimSpace(l) == heading {
			return strings.TrimSpace(strings.Join(lines[i+1:], "\n"))
		}
	}
	panic("analysis: doc.go has no \"" + heading + "\" heading")
}

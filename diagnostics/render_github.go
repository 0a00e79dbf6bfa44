package diagnostics

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// RenderGitHub writes one GitHub Actions workflow command per diagnostic:
//
//	::error file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=CODE::message
//
// Info and hint diagnostics become `::notice`. Property values and the
// message are escaped as the runner requires ("%", CR and LF everywhere;
// ":" and "," also in properties). Columns count Unicode code points.
func RenderGitHub(w io.Writer, r *Report) error {
	loc := newLocator(r)
	bw := bufio.NewWriter(w)
	for _, f := range r.Files {
		for _, d := range f.sortedDiagnostics() {
			path := d.Path
			level := "notice"
			switch d.Severity {
			case Error:
				level = "error"
			case Warning:
				level = "warning"
			}
			props := []string{"file=" + githubProperty(path)}
			if rg, ok := loc.resolve(path, d.Span, false); ok {
				props = append(props,
					fmt.Sprintf("line=%d", rg.Line), fmt.Sprintf("col=%d", rg.Column),
					fmt.Sprintf("endLine=%d", rg.EndLine), fmt.Sprintf("endColumn=%d", rg.EndColumn))
			}
			if d.Code != "" {
				props = append(props, "title="+githubProperty(d.Code))
			}
			msg := Visible(d.Message)
			if d.Help != "" {
				msg += "\nhelp: " + Visible(d.Help)
			}
			fmt.Fprintf(bw, "::%s %s::%s\n", level, strings.Join(props, ","), githubData(msg))
		}
	}
	if r.Error != nil {
		fmt.Fprintf(bw, "::error title=%s::%s\n", githubProperty(r.Error.Code), githubData(Visible(r.Error.Message)))
	}
	return bw.Flush()
}

// githubData escapes a workflow command's message.
func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// githubProperty escapes a workflow command's property value.
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

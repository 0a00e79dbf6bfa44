package cache

import (
	"fmt"
	"slices"
	"strings"

	"github.com/harnlang/harn-check/diagnostics"
	"github.com/harnlang/harn-check/driver"
)

// knownExtension reports whether ext is a file kind the toolchain knows:
// one harn-check discovers, or one a front end registered.
func knownExtension(ext string) bool {
	if ext == "" {
		return false
	}
	if slices.Contains(driver.Extensions, ext) {
		return true
	}
	_, ok := driver.Lookup("x" + ext)
	return ok
}

// ResolveExtension chooses the language of a document as the extension
// whose analyzer checks it: the client's languageId when it names a known
// kind ("harn" selects ".harn"), else the extension of the URI's path. It
// returns "" when neither is known.
func ResolveExtension(uri, languageID string) string {
	if ext := "." + strings.ToLower(languageID); languageID != "" && knownExtension(ext) {
		return ext
	}
	if ext := uriExt(uri); knownExtension(ext) {
		return ext
	}
	return ""
}

// languageName names the kinds harn-check knows for messages, as the CLI
// does.
var languageName = map[string]string{".harn": "Harn", ".leia": "Leia"}

// check runs the analyzer registered for ext on one file, exactly as
// `harn-check check` does for a file on disk: with no registered checker
// the result is the single HARN-CHK-001 info the CLI reports.
//
// The CLI's equivalent lives unexported in driver.checkFile;
// TestCheckMatchesCLI pins the two together until the driver exports it.
func check(ext, path string, src []byte) driver.Result {
	lang, ok := driver.Lookup("x" + ext)
	if !ok || lang.Check == nil {
		name := languageName[ext]
		if name == "" && ok {
			name = lang.Name
		}
		d := diagnostics.New(path, diagnostics.SourceSetup, "HARN-CHK-001", diagnostics.Span{},
			fmt.Sprintf("not checked: no %s analyzer is available in this build of harn-check", name))
		d.Help = "this file was skipped, not found clean; upgrade harn-check to a release that analyses " + name + " files"
		return driver.Result{Diagnostics: []diagnostics.Diagnostic{d}}
	}
	return lang.Check(path, src)
}

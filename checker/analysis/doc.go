// Package analysis is the one rule framework of both checkers, in the
// manner of golang.org/x/tools/go/analysis: a Rule is a small named unit
// with documentation, the codes it may report, the rules it requires and a
// Run function; Run executes a list of rules over one file, requirements
// first, and a Pass carries what every rule sees whatever the language
// (the file's path and source, Report, line lookup, the results of
// required rules).
//
// Each language's checker instantiates Rule with its own pass type, which
// embeds *Pass and adds the language's syntax tree and facts
// (checker/harn/analysis, checker/leia/analysis). A Checker value tells the
// fixture harness (analysistest) how to check one file of that language
// with chosen rules.
//
// Invariants: no IO, no printing, no severity choices (the diagnostics
// registry holds default severities; drivers filter and rank). Diagnostics
// of a rule that runs only because another requires it are dropped, as
// go/analysis drops those of non-root analyzers.
package analysis

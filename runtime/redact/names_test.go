package redact

import "testing"

// TestURLWithEachWordList: URL redacts by the word list it is given, so
// each runtime keeps its upstream's: Harn's exact names and suffixes,
// Leia's words anywhere in a name (and its user info dropped).
func TestURLWithEachWordList(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		names     Names
		dropUser  bool
		want      string
		changed   bool
	}{
		{"harn token", "https://h/x?q=1&access_token=abc&z=2", HarnParams, false, "https://h/x?q=1&access_token=%5Bredacted%5D&z=2", true},
		{"harn suffix", "https://h/x?github_token=abc", HarnParams, false, "https://h/x?github_token=%5Bredacted%5D", true},
		{"harn leaves a word inside a name", "https://h/x?monkey=1&sessionid=2", HarnParams, false, "https://h/x?monkey=1&sessionid=2", false},
		{"harn keeps user info", "https://u:p@h/x", HarnParams, false, "https://u:p@h/x", false},
		{"leia word anywhere", "https://h/x?monkey=1&sessionid=2&q=3", LeiaNames, true, "https://h/x?monkey=%5Bredacted%5D&sessionid=%5Bredacted%5D&q=3", true},
		{"leia drops user info", "https://u:p@h/x?q=1", LeiaNames, true, "https://h/x?q=1", true},
		{"nothing to redact", "https://h/x?q=1", LeiaNames, true, "https://h/x?q=1", false},
	} {
		got, changed, err := URL(tc.raw, tc.names, Mark, tc.dropUser)
		if err != nil || got != tc.want || changed != tc.changed {
			t.Errorf("%s: URL = %q, %v, %v; want %q, %v", tc.name, got, changed, err, tc.want, tc.changed)
		}
	}
	if _, _, err := URL("http://h/%zz", HarnParams, Mark, false); err == nil {
		t.Error("a malformed URL parsed")
	}
	for _, tc := range []struct {
		names Names
		name  string
		want  bool
	}{
		{HarnHeaders, "Authorization", true}, {HarnHeaders, "X-Trace", false}, {HarnHeaders, "X-API-Key", true},
		{LeiaNames, "X-Session-Id", true}, {LeiaNames, "Accept", false}, {HarnParams, "client_secret", true},
	} {
		if got := tc.names.Sensitive(tc.name); got != tc.want {
			t.Errorf("Sensitive(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

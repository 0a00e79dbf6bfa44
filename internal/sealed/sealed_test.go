package sealed

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRoundTripAndRefusals: a record reads back byte for byte (a raw "<"
// included, which json.Marshal would escape and so break the sum); a
// record of another format, a changed payload, an oversized file and a
// folder are refused with a reason.
func TestRoundTripAndRefusals(t *testing.T) {
	dir := t.TempDir()
	if err := OpenDir(filepath.Join(dir, "c")); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "c", "ab", "x.json")
	payload := `{"a":"<b> & c","n":[1,2]}`
	if err := Write(file, 3, []byte(payload)); err != nil {
		t.Fatal(err)
	}
	got, err := Read(file, 3, 0)
	if err != nil || string(got) != payload {
		t.Fatalf("read %q, %v", got, err)
	}
	data, _ := os.ReadFile(file)
	for _, tc := range []struct {
		name, content string
		format        int
		limit         int64
		want          string
	}{
		{"another format", string(data), 4, 0, "format 3"},
		{"changed payload", strings.Replace(string(data), `"n":[1,2]`, `"n":[1,3]`, 1), 3, 0, "checksum"},
		{"oversized", string(data), 3, 10, "larger than 10 bytes"},
		{"not a record", "garbage", 3, 0, "not a sealed record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := Read(p, tc.format, tc.limit); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	if _, err := Read(filepath.Join(dir, "c"), 3, 0); err == nil {
		t.Error("a folder was read as a record")
	}
	if err := OpenDir(file); err == nil {
		t.Error("a file was opened as a folder")
	}
}

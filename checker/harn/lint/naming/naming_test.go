package naming_test

import (
	"testing"

	"github.com/harnlang/harn-check/checker/analysis/analysistest"
	harn "github.com/harnlang/harn-check/checker/harn"
	"github.com/harnlang/harn-check/checker/harn/lint/naming"
)

func TestNamingConvention(t *testing.T) {
	analysistest.Run(t, "testdata", harn.Checker, naming.NamingConvention)
}

func TestConvert(t *testing.T) {
	tests := []struct{ in, snake, pascal string }{
		{"fetchData", "fetch_data", "FetchData"},
		{"HTTPGet", "http_get", "HTTPGet"},
		{"HTTP_CLIENT", "http_client", "HttpClient"},
		{"getV2Name", "get_v2_name", "GetV2Name"},
		{"user_record", "user_record", "UserRecord"},
		{"x-y", "xy", "XY"},
	}
	for _, tt := range tests {
		if got := naming.ToSnake(tt.in); got != tt.snake {
			t.Errorf("ToSnake(%q) = %q, want %q", tt.in, got, tt.snake)
		}
		if got := naming.ToPascal(tt.in); got != tt.pascal {
			t.Errorf("ToPascal(%q) = %q, want %q", tt.in, got, tt.pascal)
		}
	}
	for _, ok := range []string{"a", "_private", "v2_name"} {
		if !naming.SnakeCase(ok) {
			t.Errorf("SnakeCase(%q) = false", ok)
		}
	}
	for _, bad := range []string{"", "Abc", "aB", "2x"} {
		if naming.SnakeCase(bad) {
			t.Errorf("SnakeCase(%q) = true", bad)
		}
	}
	if naming.PascalCase("user_record") || !naming.PascalCase("UserRecord2") {
		t.Error("PascalCase")
	}
}

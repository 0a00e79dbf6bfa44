package leia

import "testing"

// TestBinFieldOf: every field type by its name and by each alias, and an
// unknown name refused.
func TestBinFieldOf(t *testing.T) {
	for _, c := range []struct {
		tok          string
		size         int
		signed, isFl bool
		ok           bool
	}{
		{"i8", 1, true, false, true}, {"int8", 1, true, false, true},
		{"i16", 2, true, false, true}, {"int16", 2, true, false, true},
		{"i32", 4, true, false, true}, {"int32", 4, true, false, true},
		{"i64", 8, true, false, true}, {"int64", 8, true, false, true},
		{"u8", 1, false, false, true}, {"uint8", 1, false, false, true}, {"byte", 1, false, false, true},
		{"u16", 2, false, false, true}, {"uint16", 2, false, false, true},
		{"u32", 4, false, false, true}, {"uint32", 4, false, false, true},
		{"u64", 8, false, false, true}, {"uint64", 8, false, false, true},
		{"f32", 4, true, true, true}, {"float32", 4, true, true, true}, {"float", 4, true, true, true},
		{"f64", 8, true, true, true}, {"float64", 8, true, true, true}, {"double", 8, true, true, true},
		{"i128", 0, false, false, false}, {"", 0, false, false, false}, {"I8", 0, false, false, false},
	} {
		f, ok := binFieldOf(c.tok)
		if ok != c.ok || ok && (f.size != c.size || f.signed != c.signed || f.float != c.isFl) {
			t.Errorf("binFieldOf(%q) = %+v, %v", c.tok, f, ok)
		}
	}
}

// TestBinaryPackAliases: a layout spelled with aliases packs as the same
// layout with the short names, and unpacks to the values packed.
func TestBinaryPackAliases(t *testing.T) {
	got := runLeia(t, New(Options{}), `a := binary.pack(">int16 double byte", -2, 1.5, 255)
b := binary.pack(">i16 f64 u8", -2, 1.5, 255)
x, y, z := binary.unpack(">i16 f64 u8", a)
return a == b, #a, x, y, z, binary.size("uint32 float")`)
	want := []string{"true", "11", "-2", "1.5", "255", "8"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}

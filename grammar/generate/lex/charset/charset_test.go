package charset

import "testing"

func set(pairs ...rune) Set {
	s := Empty()
	for i := 0; i < len(pairs); i += 2 {
		s = s.Union(Between(pairs[i], pairs[i+1]))
	}
	return s
}

func TestUnionMergesAdjacentAndOverlapping(t *testing.T) {
	cases := []struct {
		name string
		a, b Set
		want []Range
	}{
		{"inside", set('c', 'm', 'q', 's'), Char('d'), []Range{{'c', 'n'}, {'q', 't'}}},
		{"adjacent", set('c', 'm', 'q', 's'), Char('n'), []Range{{'c', 'o'}, {'q', 't'}}},
		{"fill gap", set('c', 'n', 'q', 's'), Between('o', 'p'), []Range{{'c', 't'}}},
		{"span many", set('c', 'f', 'i', 'l', 'n', 'r'), Between('d', 'o'), []Range{{'c', 's'}}},
		{"disjoint", Char('a'), Char('z'), []Range{{'a', 'b'}, {'z', '{'}}},
	}
	for _, c := range cases {
		got := c.a.Union(c.b)
		if !got.Equal(Set{r: c.want}) {
			t.Errorf("%s: got %v want %v", c.name, got.r, c.want)
		}
		if !c.b.Union(c.a).Equal(got) {
			t.Errorf("%s: union not commutative", c.name)
		}
	}
}

func TestSplitCases(t *testing.T) {
	cases := []struct {
		name                     string
		l, r, onlyL, onlyR, both Set
	}{
		{"disjoint", set('a', 'f'), set('g', 'm'), set('a', 'f'), set('g', 'm'), Empty()},
		{"overlap", set('a', 'f'), set('c', 'm'), set('a', 'b'), set('g', 'm'), set('c', 'f')},
		{"l contains r", set('a', 'm'), set('c', 'f'), set('a', 'b', 'g', 'm'), Empty(), set('c', 'f')},
		{"equal", set('a', 'm'), set('a', 'm'), Empty(), Empty(), set('a', 'm')},
		{"multi", set('a', 'c', 'x', 'z'), set('b', 'y'), set('a', 'a', 'z', 'z'), set('d', 'w'), set('b', 'c', 'x', 'y')},
		{"negated", Between('a', 'f').Negate(), Char('c'), Between('a', 'f').Negate(), Char('c'), Empty()},
	}
	for _, c := range cases {
		both, l, r := c.l.Split(c.r)
		if !both.Equal(c.both) || !l.Equal(c.onlyL) || !r.Equal(c.onlyR) {
			t.Errorf("%s: got both=%v l=%v r=%v", c.name, both, l, r)
		}
		if c.l.Intersects(c.r) != !c.both.IsEmpty() {
			t.Errorf("%s: Intersects disagrees", c.name)
		}
	}
}

func TestNegate(t *testing.T) {
	cases := []struct {
		in   Set
		want []Range
	}{
		{Empty(), []Range{{0, End}}},
		{Char(0), []Range{{1, End}}},
		{Char('\n'), []Range{{0, '\n'}, {'\n' + 1, End}}},
		{set(0, 9, 'a', 'z'), []Range{{10, 'a'}, {'z' + 1, End}}},
		{Between(0, End-1), nil},
	}
	for _, c := range cases {
		got := c.in.Negate()
		if !got.Equal(Set{r: c.want}) {
			t.Errorf("negate %v: got %v", c.in, got.r)
		}
		if !got.Negate().Equal(c.in) {
			t.Errorf("double negation of %v changed it", c.in)
		}
	}
}

func TestCompareOrdersBySizeThenRanges(t *testing.T) {
	cases := []struct {
		a, b Set
		want int
	}{
		{Char('a'), Char('b'), -1},
		{Char('z'), Between('a', 'b'), -1},
		{set('a', 'a', 'c', 'd'), set('a', 'b', 'd', 'd'), -1},
		{Between('a', 'f').Negate(), Char('0'), 1},
		{Char('x'), Char('x'), 0},
	}
	for _, c := range cases {
		if got := c.a.Compare(c.b); got != c.want {
			t.Errorf("Compare(%v, %v) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := c.b.Compare(c.a); got != -c.want {
			t.Errorf("Compare(%v, %v) = %d, want %d", c.b, c.a, got, -c.want)
		}
	}
}

func TestRangesSkipSurrogates(t *testing.T) {
	s := Between(0xD000, 0xDFFF).Union(Between(0x10000, 0x10FFFF))
	got := s.Ranges()
	want := [][2]rune{{0xD000, 0xD7FF}, {0x10000, 0x10FFFF}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("Ranges = %x, want %x", got, want)
	}
	if r := Between(0xD800, 0xDFFF).Ranges(); len(r) != 0 {
		t.Fatalf("surrogate-only set rendered as %x", r)
	}
}

func TestSimplifyIgnoring(t *testing.T) {
	cases := []struct {
		name        string
		s, ruledOut Set
		want        Set
	}{
		{"drop ruled out", set('a', 'a', 'x', 'x'), Char('a'), Char('x')},
		{"join over gap", set('a', 'c', 'g', 'h'), set('d', 'f'), set('a', 'h')},
		{"no change", set('a', 'c', 'g', 'h'), Char('z'), set('a', 'c', 'g', 'h')},
		{"all ruled out", Char('q'), Between('a', 'z'), Empty()},
	}
	for _, c := range cases {
		if got := c.s.SimplifyIgnoring(c.ruledOut); !got.Equal(c.want) {
			t.Errorf("%s: got %v want %v", c.name, got, c.want)
		}
	}
}

func TestContainsAndSize(t *testing.T) {
	s := set('a', 'c', 'x', 'z')
	for _, c := range []struct {
		r    rune
		want bool
	}{{'a', true}, {'c', true}, {'d', false}, {'y', true}, {'{', false}, {0, false}} {
		if s.Contains(c.r) != c.want {
			t.Errorf("Contains(%q) = %v", c.r, !c.want)
		}
	}
	if s.Size() != 6 || s.RangeCount() != 2 {
		t.Errorf("Size=%d RangeCount=%d", s.Size(), s.RangeCount())
	}
	if !FromRanges(Range{'x', '{'}, Range{'a', 'd'}).Equal(s) {
		t.Error("FromRanges out of order")
	}
}

package ir

import (
	"reflect"
	"testing"
)

func TestTokenSet(t *testing.T) {
	var a, b TokenSet
	for _, i := range []int{0, 3, 64, 130} {
		a.Add(i)
	}
	b.Add(3)
	if !a.Has(130) || a.Has(1) || a.Len() != 4 {
		t.Fatalf("membership wrong: %v", a.Slice())
	}
	if !reflect.DeepEqual(a.Slice(), []int{0, 3, 64, 130}) {
		t.Errorf("Slice = %v", a.Slice())
	}
	if !a.Intersects(b) || b.Union(a) != true || !b.Equal(a) || b.Union(a) {
		t.Errorf("union/intersect wrong")
	}
	c := a.Clone()
	c.Remove(130)
	if a.Key() == c.Key() || a.Equal(c) || !a.Has(130) {
		t.Errorf("clone not independent or key not distinct")
	}
	var e1, e2 TokenSet
	e2.Add(200)
	e2.Remove(200)
	if !e2.Empty() || e1.Key() != e2.Key() || !e1.Equal(e2) {
		t.Errorf("empty sets differ")
	}
}

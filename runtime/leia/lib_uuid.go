package leia

// The uuid module: random (version 4) UUIDs and their validation.

import (
	"crypto/rand"
	"fmt"
	"regexp"
	"sync"
)

func formatUUID(b [16]byte) string {
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// uuidRe is compiled at its first use, not in every process.
var uuidRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
})

func openUUID(in *Interp) {
	gen := func(t *Thread, a []Value) ([]Value, error) {
		var b [16]byte
		rand.Read(b[:])
		return t.Ret1(String(formatUUID(b))), nil
	}
	m := newModule(in, "uuid", map[string]NativeFunc{
		"new": gen, "v4": gen,
		"isValid": func(t *Thread, a []Value) ([]Value, error) {
			s, err := CheckString(a, 0, "isValid")
			return t.Ret1(Bool(uuidRe().MatchString(s))), err
		},
	})
	m.SetStr("nil", String("00000000-0000-0000-0000-000000000000"))
}

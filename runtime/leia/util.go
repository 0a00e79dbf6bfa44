package leia

import "fmt"

// addrString is the identity part of tostring for reference values.
func addrString(v Value) string { return fmt.Sprintf("%p", v.p) }

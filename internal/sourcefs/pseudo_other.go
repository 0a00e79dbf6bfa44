//go:build !linux

package sourcefs

func pseudoFS(string) string { return "" }

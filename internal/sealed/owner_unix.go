//go:build unix

package sealed

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// unsafeFolder says why the store must not trust a folder, "" when it may:
// a folder others can write to (without the sticky bit, anyone could
// replace entries; with it, anyone could still plant new ones), or one
// another user owns.
func unsafeFolder(info fs.FileInfo) string {
	if info.Mode().Perm()&0o002 != 0 {
		return "writable by others"
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Sprintf("owned by another user (uid %d)", st.Uid)
	}
	return ""
}

// ownedByUs reports whether a record belongs to the current user.
func ownedByUs(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid()
}

// Package sealed stores records in a private cache folder so that a
// damaged record is detected and two processes writing at once never
// leave a torn one. The check cache (manifest/checkcache) and the
// evaluation cache (runtime/evaluate) share it.
//
// What it trusts, and what it does not:
//
//   - A folder only when it is private: OpenDir refuses a folder that
//     others can write to or that another user owns (anyone who can write
//     the folder could plant records), and Read ignores a record owned by
//     another user or that is not a regular file.
//   - A record carries the SHA-256 of its payload and its format version;
//     a record whose checksum or version does not match is refused. The
//     checksum detects damage, not an attacker who can write the folder:
//     the folder's permissions keep attackers out, and each cache still
//     validates what a record says before using it.
//
// A record is the JSON object {"format": N, "sum": HEX, "payload": JSON},
// written to a temporary file in the record's folder and renamed into
// place.
package sealed

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// UnsafeError is OpenDir's refusal of a folder it must not trust.
type UnsafeError struct {
	Dir string
	// Why says what is wrong: "writable by others", "owned by another
	// user (uid 1001)".
	Why string
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("cache folder %s is %s; it could hold forged results", e.Dir, e.Why)
}

// OpenDir creates dir (readable and writable by its owner only) when it
// does not exist, and refuses, with an *UnsafeError, a folder others can
// write to or another user owns.
func OpenDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cache directory: %w", err)
	}
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("cache directory: %w", err)
	}
	if !info.IsDir() {
		return fmt.Errorf("cache directory: %s is not a folder", dir)
	}
	if why := unsafeFolder(info); why != "" {
		return &UnsafeError{Dir: dir, Why: why}
	}
	return nil
}

// Sum is the lower-case hex SHA-256 of b.
func Sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// record is the on-disk form.
type record struct {
	Format  int             `json:"format"`
	Sum     string          `json:"sum"`
	Payload json.RawMessage `json:"payload"`
}

// Trusted says why a file in a private folder must not be read as a
// record (nil when it may): it is not a regular file, or another user
// owns it.
func Trusted(info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	if !ownedByUs(info) {
		return errors.New("owned by another user")
	}
	return nil
}

// Read returns the payload of the record in file, verifying that it is a
// regular file the current user owns, at most limit bytes (0: no limit),
// of the given format and intact. The error says why a record is not
// used (a cache treats every error as a miss).
func Read(file string, format int, limit int64) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := Trusted(info); err != nil {
		return nil, err
	}
	var r io.Reader = f
	if limit > 0 {
		if info.Size() > limit {
			return nil, fmt.Errorf("larger than %d bytes", limit)
		}
		r = io.LimitReader(f, limit+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if limit > 0 && int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	var s record
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("not a sealed record: %v", err)
	}
	if s.Format != format {
		return nil, fmt.Errorf("format %d, want %d", s.Format, format)
	}
	if s.Sum != Sum(s.Payload) {
		return nil, errors.New("checksum mismatch")
	}
	return s.Payload, nil
}

// Write seals payload (which must be JSON) under format and writes it to
// file atomically, creating the file's folder (owner only) when needed.
func Write(file string, format int, payload []byte) error {
	// The sum covers the payload as it is stored: compact, and not
	// HTML-escaped (json.Marshal would rewrite a raw "<").
	var compact, data bytes.Buffer
	if err := json.Compact(&compact, payload); err != nil {
		return err
	}
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(record{Format: format, Sum: Sum(compact.Bytes()), Payload: compact.Bytes()}); err != nil {
		return err
	}
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data.Bytes())
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

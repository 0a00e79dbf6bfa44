package manifest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
)

// Question is one question of a site's question set, in declared order.
type Question struct {
	ID           string
	Kind         string
	Instructions string
	// Labels are a choice's label keys or a score's levels, in declared
	// order; empty for a boolean.
	Labels []string
}

// QuestionSetSHA256 returns the digest of a question set in the byte
// layout documented in the package comment.
func QuestionSetSHA256(qs []Question) string {
	h := sha256.New()
	for _, q := range qs {
		writeString(h, q.ID)
		writeString(h, q.Kind)
		writeString(h, q.Instructions)
		writeUint64(h, uint64(len(q.Labels)))
		for _, l := range q.Labels {
			writeString(h, l)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// InstructionsSHA256 returns the digest of one question's instructions.
func InstructionsSHA256(instructions string) string { return hexSHA256(instructions) }

// hexSHA256 is the lower-case hex SHA-256 of s.
func hexSHA256(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func writeUint64(h hash.Hash, n uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], n)
	h.Write(b[:])
}

func writeString(h hash.Hash, s string) {
	writeUint64(h, uint64(len(s)))
	h.Write([]byte(s))
}

// Package blake3 is the BLAKE3 hash (unkeyed, 32-byte digests), written
// from the BLAKE3 specification in portable Go.
//
// The identities and request hashes of evaluations and LLM tapes are
// "blake3:" + hex digests. This package computes them without the CPU
// feature detection that assembly implementations run in every process's
// start; the inputs hashed here are small (canonical JSON), where the
// portable compression function is fast enough.
package blake3

import (
	"encoding/binary"
	"math/bits"
)

// Size is the length of a digest in bytes.
const Size = 32

const (
	blockLen = 64
	chunkLen = 1024

	flagChunkStart = 1 << 0
	flagChunkEnd   = 1 << 1
	flagParent     = 1 << 2
	flagRoot       = 1 << 3
)

// iv is the initial chaining value (the same words as SHA-256's).
var iv = [8]uint32{0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19}

// schedule[r] is the order of the message words in round r: the
// specification permutes the words between rounds; these are the
// permutation applied r times.
var schedule = [7][16]uint8{
	{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
	{2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8},
	{3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1},
	{10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6},
	{12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4},
	{9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7},
	{11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13},
}

// g is the quarter-round on four state words with two message words.
func g(a, b, c, d, x, y uint32) (uint32, uint32, uint32, uint32) {
	a += b + x
	d = bits.RotateLeft32(d^a, -16)
	c += d
	b = bits.RotateLeft32(b^c, -12)
	a += b + y
	d = bits.RotateLeft32(d^a, -8)
	c += d
	b = bits.RotateLeft32(b^c, -7)
	return a, b, c, d
}

// compress is the compression function: the full 16-word output for the
// chaining value cv, a block of message words, the counter, the block's
// length in bytes and the flags.
func compress(cv *[8]uint32, m *[16]uint32, counter uint64, n uint32, flags uint32) [16]uint32 {
	s0, s1, s2, s3, s4, s5, s6, s7 := cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7]
	s8, s9, s10, s11 := iv[0], iv[1], iv[2], iv[3]
	s12, s13, s14, s15 := uint32(counter), uint32(counter>>32), n, flags
	for r := range schedule {
		w := &schedule[r]
		s0, s4, s8, s12 = g(s0, s4, s8, s12, m[w[0]&15], m[w[1]&15])
		s1, s5, s9, s13 = g(s1, s5, s9, s13, m[w[2]&15], m[w[3]&15])
		s2, s6, s10, s14 = g(s2, s6, s10, s14, m[w[4]&15], m[w[5]&15])
		s3, s7, s11, s15 = g(s3, s7, s11, s15, m[w[6]&15], m[w[7]&15])
		s0, s5, s10, s15 = g(s0, s5, s10, s15, m[w[8]&15], m[w[9]&15])
		s1, s6, s11, s12 = g(s1, s6, s11, s12, m[w[10]&15], m[w[11]&15])
		s2, s7, s8, s13 = g(s2, s7, s8, s13, m[w[12]&15], m[w[13]&15])
		s3, s4, s9, s14 = g(s3, s4, s9, s14, m[w[14]&15], m[w[15]&15])
	}
	return [16]uint32{
		s0 ^ s8, s1 ^ s9, s2 ^ s10, s3 ^ s11, s4 ^ s12, s5 ^ s13, s6 ^ s14, s7 ^ s15,
		s8 ^ cv[0], s9 ^ cv[1], s10 ^ cv[2], s11 ^ cv[3], s12 ^ cv[4], s13 ^ cv[5], s14 ^ cv[6], s15 ^ cv[7],
	}
}

// words reads a block (zero-padded) as little-endian message words.
func words(b *[blockLen]byte) [16]uint32 {
	var m [16]uint32
	for i := range m {
		m[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return m
}

// cvOf is the chaining value of a compression: its first eight words.
func cvOf(s [16]uint32) [8]uint32 { return [8]uint32(s[:8]) }

// node is what is left to compress for a chunk's last block or a parent:
// compressing it gives a chaining value, or with flagRoot the digest.
type node struct {
	cv      [8]uint32
	m       [16]uint32
	counter uint64
	n       uint32
	flags   uint32
}

func (o *node) chainingValue() [8]uint32 {
	return cvOf(compress(&o.cv, &o.m, o.counter, o.n, o.flags))
}

// parent is the node joining two subtrees' chaining values.
func parent(left, right [8]uint32) node {
	o := node{cv: iv, n: blockLen, flags: flagParent}
	copy(o.m[:8], left[:])
	copy(o.m[8:], right[:])
	return o
}

// Hasher computes a digest of what is written to it. The zero value is
// not ready: use New.
type Hasher struct {
	// the chunk being read: its chaining value so far, its index, the
	// bytes of its current block and how many blocks it has compressed
	cv      [8]uint32
	chunk   uint64
	block   [blockLen]byte
	n       int
	blocks  int
	stack   [54][8]uint32 // chaining values of complete subtrees (2^54 chunks is past any input)
	stacked int
}

// New returns a Hasher of 32-byte unkeyed BLAKE3 digests.
func New() *Hasher {
	h := &Hasher{}
	h.Reset()
	return h
}

// Reset forgets what was written.
func (h *Hasher) Reset() { *h = Hasher{cv: iv} }

// Size is the digest's length, 32.
func (h *Hasher) Size() int { return Size }

// BlockSize is BLAKE3's block length, 64.
func (h *Hasher) BlockSize() int { return blockLen }

// Write adds p to the input; it never fails.
func (h *Hasher) Write(p []byte) (int, error) {
	written := len(p)
	for len(p) > 0 {
		if h.blocks*blockLen+h.n == chunkLen {
			h.endChunk()
		}
		if h.n == blockLen {
			// A full block is compressed once more input shows it is
			// not the chunk's last.
			m := words(&h.block)
			h.cv = cvOf(compress(&h.cv, &m, h.chunk, blockLen, h.startFlag()))
			h.blocks++
			h.n = 0
		}
		k := copy(h.block[h.n:], p)
		h.n += k
		p = p[k:]
	}
	return written, nil
}

func (h *Hasher) startFlag() uint32 {
	if h.blocks == 0 {
		return flagChunkStart
	}
	return 0
}

// chunkNode is the current chunk's last block, still to be compressed.
func (h *Hasher) chunkNode() node {
	b := h.block
	clear(b[h.n:])
	return node{cv: h.cv, m: words(&b), counter: h.chunk, n: uint32(h.n), flags: h.startFlag() | flagChunkEnd}
}

// endChunk pushes the full current chunk's chaining value, merging
// complete subtrees (one per trailing zero bit of the chunk count), and
// starts the next chunk.
func (h *Hasher) endChunk() {
	last := h.chunkNode()
	cv := last.chainingValue()
	total := h.chunk + 1
	for total&1 == 0 {
		h.stacked--
		p := parent(h.stack[h.stacked], cv)
		cv = p.chainingValue()
		total >>= 1
	}
	h.stack[h.stacked] = cv
	h.stacked++
	*h = Hasher{cv: iv, chunk: h.chunk + 1, stack: h.stack, stacked: h.stacked}
}

// Sum appends the digest of what was written to b; the Hasher is not
// changed.
func (h *Hasher) Sum(b []byte) []byte {
	d := h.digest()
	return append(b, d[:]...)
}

func (h *Hasher) digest() [Size]byte {
	o := h.chunkNode()
	for i := h.stacked - 1; i >= 0; i-- {
		o = parent(h.stack[i], o.chainingValue())
	}
	s := compress(&o.cv, &o.m, 0, o.n, o.flags|flagRoot)
	var d [Size]byte
	for i := range 8 {
		binary.LittleEndian.PutUint32(d[4*i:], s[i])
	}
	return d
}

// Sum256 returns the 32-byte BLAKE3 digest of b.
func Sum256(b []byte) [Size]byte {
	var h Hasher
	h.Reset()
	h.Write(b)
	return h.digest()
}

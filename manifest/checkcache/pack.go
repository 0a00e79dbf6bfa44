package checkcache

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/harnlang/harn-check/internal/sealed"
)

// A pack file holds the records one run stored: their payloads one after
// the other, then an index, then a trailer:
//
//	payload ... payload | index (JSON) | trailer (packTrailer bytes)
//
// The index lists each record's key, offset, length and the SHA-256 of
// its payload; the trailer holds the index's offset, length and SHA-256
// and the magic string with the format version. A run writes its pack to
// a temporary file as it goes (one write per record, no file created per
// record) and renames it into packs/ when it ends (Flush); a reader sees
// whole packs or none. A pack that is truncated, fails a checksum or
// another user owns is ignored, and so is a record whose payload does not
// match its sum.
//
// Packs accumulate, one per run that stored something; when there are
// more than maxPacks, Flush merges the ones this process read (the newest
// record of each key) into one and removes them. A pack another process
// removes while this one reads it stays readable through the open file.

// packMagic ends every pack; the digit is the format version.
var packMagic = []byte(fmt.Sprintf("harn-check pack v%d\n", formatVersion))

// packTrailer is the trailer's size: index offset and length (8 bytes
// each), the index's SHA-256, the magic.
var packTrailer = 16 + sha256.Size + len(packMagic)

// maxPacks is how many packs may accumulate before Flush merges them.
const maxPacks = 8

// packDir is the folder of the packs inside the cache folder.
const packDir = "packs"

// indexRecord is one record of a pack's index.
type indexRecord struct {
	Key string `json:"k"`
	Off int64  `json:"o"`
	Len int64  `json:"n"`
	Sum string `json:"s"`
}

// loc is where a record's payload is: a pack file (open) and a range.
type loc struct {
	f   *os.File
	off int64
	n   int64
	sum [sha256.Size]byte
}

// packs is the cache's view of its packs: the index of every record
// found when it was first needed, plus the records this process stored
// since (in the pack being written).
type packs struct {
	mu     sync.Mutex
	loaded bool
	index  map[string]loc
	// read are the packs the index was built from, by name.
	read map[string]*os.File
	// out is the pack being written (a temporary file), nil until the
	// first store after a flush; outIndex lists its records.
	out      *os.File
	outOff   int64
	outIndex []indexRecord
	// writing counts the records being written into out outside the
	// lock, each into the range reserved for it; written is signalled
	// when one is done (Flush waits for none to be left).
	writing int
	written *sync.Cond
}

// errPackDropped is a save's error when the pack it wrote into was
// dropped meanwhile, after another record's write failed.
var errPackDropped = errors.New("the pack being written was dropped after a failed write")

// lookup returns the payload stored under key, verified against its sum.
func (c *Cache) lookup(key string) ([]byte, bool) {
	c.p.mu.Lock()
	c.loadLocked()
	l, ok := c.p.index[key]
	c.p.mu.Unlock()
	if !ok || l.n > maxRecord {
		return nil, false
	}
	buf := make([]byte, l.n)
	if _, err := l.f.ReadAt(buf, l.off); err != nil {
		return nil, false
	}
	if sha256.Sum256(buf) != l.sum {
		return nil, false
	}
	return buf, true
}

// maxRecord bounds the payload read for one record: larger ones are
// damage, not records (a file's sources are bounded by the file-size
// limit far below this).
const maxRecord = 1 << 30

// save appends payload to the pack being written, under key. The range
// it goes to is reserved under the lock and written outside it, so that
// one worker's write does not hold up another's lookup or save; the
// record is listed once written.
func (c *Cache) save(key string, payload []byte) error {
	sum := sha256.Sum256(payload)
	c.p.mu.Lock()
	c.loadLocked()
	if c.p.out == nil {
		dir := filepath.Join(c.dir, packDir)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			c.p.mu.Unlock()
			return err
		}
		f, err := os.CreateTemp(dir, ".tmp-*")
		if err != nil {
			c.p.mu.Unlock()
			return err
		}
		c.p.out, c.p.outOff, c.p.outIndex = f, 0, nil
	}
	out, off, n := c.p.out, c.p.outOff, int64(len(payload))
	c.p.outOff += n
	c.p.writing++
	c.p.mu.Unlock()

	_, err := out.WriteAt(payload, off)

	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	c.p.writing--
	if c.p.written != nil {
		c.p.written.Broadcast()
	}
	if c.p.out != out {
		return errPackDropped
	}
	if err != nil {
		// The pack has a hole now: drop it, and this run's records
		// with it (each only costs a later re-check).
		c.dropOutLocked()
		return err
	}
	c.p.index[key] = loc{f: out, off: off, n: n, sum: sum}
	c.p.outIndex = append(c.p.outIndex, indexRecord{Key: key, Off: off, Len: n, Sum: hex.EncodeToString(sum[:])})
	return nil
}

// waitWritesLocked waits until no record is being written into out.
func (c *Cache) waitWritesLocked() {
	for c.p.writing > 0 {
		if c.p.written == nil {
			c.p.written = sync.NewCond(&c.p.mu)
		}
		c.p.written.Wait()
	}
}

// dropOutLocked removes the pack being written and forgets its records.
func (c *Cache) dropOutLocked() {
	out := c.p.out
	c.p.out, c.p.outIndex = nil, nil
	for k, l := range c.p.index {
		if l.f == out {
			delete(c.p.index, k)
		}
	}
	os.Remove(out.Name())
	out.Close()
}

// Flush ends the pack of the records stored since the last flush: it
// writes its index and trailer and renames it into the cache folder,
// where later runs find it. Until then only this Cache sees those
// records. When packs have accumulated, Flush then merges the packs it
// knows into one. A failed flush loses only those records (each costs a
// re-check later). Flush with nothing stored does nothing.
func (c *Cache) Flush() error {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	c.waitWritesLocked()
	if c.p.out == nil {
		return nil
	}
	out, index := c.p.out, c.p.outIndex
	if err := finishPack(out, c.p.outOff, index); err != nil {
		c.dropOutLocked()
		return err
	}
	name := packName()
	if err := os.Rename(out.Name(), filepath.Join(c.dir, packDir, name)); err != nil {
		c.dropOutLocked()
		return err
	}
	c.p.out, c.p.outIndex = nil, nil
	c.p.read[name] = out
	if len(c.p.read) > maxPacks {
		// A failed merge leaves the packs as they were.
		_ = c.mergeLocked()
	}
	return nil
}

// packName names a new pack so that names sort by creation: the time in
// nanoseconds, then random digits against a tie.
func packName() string {
	var r [4]byte
	rand.Read(r[:])
	return fmt.Sprintf("%016x-%s.pack", time.Now().UnixNano(), hex.EncodeToString(r[:]))
}

// finishPack writes the index and trailer after size bytes of payloads.
func finishPack(f *os.File, size int64, index []indexRecord) error {
	data, err := json.Marshal(index)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	trailer := make([]byte, 0, packTrailer)
	trailer = binary.LittleEndian.AppendUint64(trailer, uint64(size))
	trailer = binary.LittleEndian.AppendUint64(trailer, uint64(len(data)))
	trailer = append(trailer, sum[:]...)
	trailer = append(trailer, packMagic...)
	if _, err := f.WriteAt(append(data, trailer...), size); err != nil {
		return err
	}
	return nil
}

// readPack returns the index of the pack f, or an error saying why the
// pack is not used.
func readPack(f *os.File) ([]indexRecord, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := sealed.Trusted(info); err != nil {
		return nil, err
	}
	size := info.Size()
	if size < int64(packTrailer) {
		return nil, errors.New("truncated")
	}
	trailer := make([]byte, packTrailer)
	if _, err := f.ReadAt(trailer, size-int64(packTrailer)); err != nil {
		return nil, err
	}
	if !bytes.Equal(trailer[16+sha256.Size:], packMagic) {
		return nil, errors.New("not a pack of this format")
	}
	off := int64(binary.LittleEndian.Uint64(trailer[0:8]))
	n := int64(binary.LittleEndian.Uint64(trailer[8:16]))
	if off < 0 || n < 0 || off+n != size-int64(packTrailer) {
		return nil, errors.New("index out of range")
	}
	data := make([]byte, n)
	if _, err := f.ReadAt(data, off); err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); !bytes.Equal(sum[:], trailer[16:16+sha256.Size]) {
		return nil, errors.New("index checksum mismatch")
	}
	var index []indexRecord
	if err := json.Unmarshal(data, &index); err != nil {
		return nil, err
	}
	for _, r := range index {
		if r.Off < 0 || r.Len < 0 || r.Off+r.Len > off {
			return nil, errors.New("record out of range")
		}
	}
	return index, nil
}

// loadLocked builds the index from the packs in the folder, once; later
// packs override earlier ones record by record.
func (c *Cache) loadLocked() {
	if c.p.loaded {
		return
	}
	c.p.loaded = true
	c.p.index, c.p.read = map[string]loc{}, map[string]*os.File{}
	entries, err := os.ReadDir(filepath.Join(c.dir, packDir))
	if err != nil {
		return
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".pack") && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	for _, name := range names {
		f, err := os.Open(filepath.Join(c.dir, packDir, name))
		if err != nil {
			continue // removed by a merge meanwhile
		}
		index, err := readPack(f)
		if err != nil {
			// A pack is renamed into place whole, so one that does
			// not decode is damaged: remove it, unless it is not ours.
			info, serr := f.Stat()
			f.Close()
			if serr == nil && sealed.Trusted(info) == nil {
				os.Remove(filepath.Join(c.dir, packDir, name))
			}
			continue
		}
		c.p.read[name] = f
		for _, r := range index {
			var l loc
			if s, err := hex.DecodeString(r.Sum); err != nil || len(s) != sha256.Size {
				continue
			} else {
				copy(l.sum[:], s)
			}
			l.f, l.off, l.n = f, r.Off, r.Len
			c.p.index[r.Key] = l
		}
	}
}

// mergeLocked writes every record of the index into one new pack and
// removes the packs it came from.
func (c *Cache) mergeLocked() error {
	dir := filepath.Join(c.dir, packDir)
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(c.p.index))
	for k := range c.p.index {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var (
		index []indexRecord
		off   int64
		buf   []byte
		fail  error
	)
	w := io.Writer(f)
	for _, k := range keys {
		l := c.p.index[k]
		if int64(cap(buf)) < l.n {
			buf = make([]byte, l.n)
		}
		b := buf[:l.n]
		if _, err := l.f.ReadAt(b, l.off); err != nil || sha256.Sum256(b) != l.sum {
			continue // damaged: dropped
		}
		if _, err := w.Write(b); err != nil {
			fail = err
			break
		}
		index = append(index, indexRecord{Key: k, Off: off, Len: l.n, Sum: hex.EncodeToString(l.sum[:])})
		off += l.n
	}
	if fail == nil {
		fail = finishPack(f, off, index)
	}
	name := packName()
	if fail == nil {
		fail = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if fail != nil {
		os.Remove(f.Name())
		f.Close()
		return fail
	}
	old := c.p.read
	c.p.read = map[string]*os.File{name: f}
	c.p.index = make(map[string]loc, len(index))
	for _, r := range index {
		l := loc{f: f, off: r.Off, n: r.Len}
		hex.Decode(l.sum[:], []byte(r.Sum))
		c.p.index[r.Key] = l
	}
	for n, pf := range old {
		os.Remove(filepath.Join(dir, n))
		pf.Close()
	}
	removeStaleTemps(dir)
	return nil
}

// staleTemp is the age after which a temporary pack is taken for the
// remains of a run that died before its flush.
const staleTemp = 24 * time.Hour

// removeStaleTemps removes the temporary packs in dir older than
// staleTemp.
func removeStaleTemps(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".tmp-") {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// Close flushes the records stored since the last flush and closes the
// packs; the Cache must not be used afterwards.
func (c *Cache) Close() error {
	err := c.Flush()
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	for _, f := range c.p.read {
		f.Close()
	}
	c.p.read, c.p.index, c.p.loaded = map[string]*os.File{}, map[string]loc{}, true
	return err
}

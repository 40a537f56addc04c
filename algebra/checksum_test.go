package algebra

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cubeview/model"
)

// TestChecksumStartsWhenOperandOpens: an operand file's checksum for the
// provenance is computed from the moment the file is opened, alongside
// the reading of the other operands and the arithmetic, not in a pass of
// its own afterwards; the result records it.
func TestChecksumStartsWhenOperandOpens(t *testing.T) {
	dir := t.TempDir()
	paths := map[string]string{}
	for _, name := range []string{"a.data", "b.data"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("content of "+name), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	started := false
	open := func(path string) (*model.Experiment, error) {
		e := handA(t)
		e.Source = path
		if path == paths["b.data"] {
			// a was opened before: its checksum is under way or done.
			fi, _ := os.Stat(paths["a.data"])
			c := checksumOf(paths["a.data"], fi)
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				if c.sumReady() {
					started = true
					break
				}
			}
		}
		return e, nil
	}
	x, err := Parse("diff(" + paths["a.data"] + ", " + paths["b.data"] + ")")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Eval(x, open, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !started {
		t.Error("the checksum of the first operand was not computed while the second was opened")
	}
	p, _, err := ReadProvenance(res)
	if err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256([]byte("content of a.data"))
	if p.Operands[0].SHA256 != hex.EncodeToString(want[:]) {
		t.Errorf("recorded checksum %s", p.Operands[0].SHA256)
	}
}

// TestChecksumFromReader: an operand whose reader hashed the file while
// reading it (model.Experiment.ContentSum) is recorded with that
// checksum, and the file is not read again for it; where the reader's
// sum fails (the file changed), the file is hashed as it is now.
func TestChecksumFromReader(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"a.data", "b.data"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("content of "+name), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	calls := 0
	open := func(path string) (*model.Experiment, error) {
		e := handA(t)
		e.Source = path
		if path == paths[0] {
			model.SetContentSum(e, func() (string, int64, error) {
				calls++
				return "00c0ffee", 42, nil
			})
		} else {
			model.SetContentSum(e, func() (string, int64, error) { return "", 0, errors.New("changed") })
		}
		return e, nil
	}
	x, err := Parse("diff(" + paths[0] + ", " + paths[1] + ")")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Eval(x, open, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		// Blocks of the result may be read from the operands only when
		// it is written: the checksum waits for the attributes' turn.
		t.Errorf("the reader's checksum was taken before the result's attributes were needed")
	}
	p, _, err := ReadProvenance(res)
	if err != nil {
		t.Fatal(err)
	}
	if o := p.Operands[0]; o.SHA256 != "00c0ffee" || o.Size != 42 || calls != 1 {
		t.Errorf("first operand recorded as %+v (reader's sum asked %d times), want the reader's sum", o, calls)
	}
	fi, _ := os.Stat(paths[0])
	if c := checksumOf(paths[0], fi); c.sumReady() {
		t.Error("the first operand's file was hashed again")
	}
	want := sha256.Sum256([]byte("content of b.data"))
	if o := p.Operands[1]; o.SHA256 != hex.EncodeToString(want[:]) || o.Size != int64(len("content of b.data")) {
		t.Errorf("second operand recorded as %+v, want the file's own checksum", o)
	}
}

package repo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"cubeview/internal/synth"
	"cubeview/model"
)

// Child processes of the tests below, selected by $CUBEVIEW_CHILD:
// "read LOC" reads LOC as a user who may not write it, "full LOC DIR"
// reads LOC after copying it to a full file system mounted at DIR.
func childMain(mode string) int {
	var err error
	switch f := strings.SplitN(mode, "\x1e", 3); f[0] {
	case "read":
		err = childRead(f[1])
	case "full":
		err = childFull(f[1], f[2])
	default:
		err = fmt.Errorf("unknown child mode %q", f[0])
	}
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Println("ok")
	return 0
}

// childRead checks that a repository the user may only read is read
// whole by the read-only commands, opened read-write as read-only, and
// refuses changes saying why.
func childRead(loc string) error {
	ctx := context.Background()
	r, err := OpenReadOnly(ctx, loc)
	if err != nil {
		return fmt.Errorf("read-only open: %w", err)
	}
	defer r.Close()
	if err := readAll(r); err != nil {
		return err
	}
	w, err := Open(ctx, loc)
	if err != nil {
		return fmt.Errorf("open: %w", err)
	}
	defer w.Close()
	if err := readAll(w); err != nil {
		return err
	}
	ro, why, err := w.ReadOnly(ctx)
	if err != nil || !ro || !strings.Contains(why, "read-only") {
		return fmt.Errorf("ReadOnly: %v %q %v", ro, why, err)
	}
	_, err = w.ImportExperiment(ctx, synth.Generate(synth.Config{Cnodes: 3, Locations: 1, Metrics: 1}), Source{Path: "x", SHA256: "y"}, ImportOptions{})
	if !errors.Is(err, ErrReadOnly) {
		return fmt.Errorf("import into a read-only file: %v", err)
	}
	return nil
}

// readAll lists, searches, opens and dumps every trial.
func readAll(r *Repo) error {
	ctx := context.Background()
	ts, err := r.Trials(ctx, "procs >= 1", ListOptions{})
	if err != nil || len(ts) == 0 {
		return fmt.Errorf("ls: %d trials, %w", len(ts), err)
	}
	if hits, err := r.Find(ctx, Query{Metric: "time", Share: true, MinShare: 0.01}); err != nil || len(hits) == 0 {
		return fmt.Errorf("find: %d hits, %w", len(hits), err)
	}
	for _, tr := range ts {
		e, err := r.Open(ctx, tr.ID)
		if err != nil {
			return err
		}
		if err := e.Dump(io.Discard); err != nil {
			return fmt.Errorf("dump of trial %d: %w", tr.ID, err)
		}
	}
	return nil
}

// childFull mounts a small file system at dir (in a mount namespace of
// its own), copies the repository into it, fills it and reads.
func childFull(loc, dir string) error {
	if err := syscall.Mount("none", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("private mounts: %w", err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=4m"); err != nil {
		return fmt.Errorf("mounting a small file system: %w", err)
	}
	defer syscall.Unmount(dir, 0)
	data, err := os.ReadFile(loc)
	if err != nil {
		return err
	}
	full := filepath.Join(dir, "repository.db")
	if err := os.WriteFile(full, data, 0o600); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		return err
	}
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				return fmt.Errorf("filling the disk: %w", err)
			}
			break
		}
	}
	f.Close()
	// The disk is full: not one more byte.
	if err := os.WriteFile(filepath.Join(dir, "probe"), []byte("x"), 0o600); !errors.Is(err, syscall.ENOSPC) {
		return fmt.Errorf("the disk is not full: %v", err)
	}
	ctx := context.Background()
	r, err := OpenReadOnly(ctx, full)
	if err != nil {
		return fmt.Errorf("read-only open on a full disk: %w", err)
	}
	defer r.Close()
	if err := readAll(r); err != nil {
		return fmt.Errorf("on a full disk: %w", err)
	}
	w, err := Open(ctx, full)
	if err != nil {
		return fmt.Errorf("open on a full disk: %w", err)
	}
	defer w.Close()
	if err := readAll(w); err != nil {
		return fmt.Errorf("opened for writing on a full disk: %w", err)
	}
	if _, err := w.ImportExperiment(ctx, synth.Generate(synth.Config{Cnodes: 3, Locations: 1, Metrics: 1}), Source{Path: "x", SHA256: "y"}, ImportOptions{}); err == nil {
		return errors.New("an import on a full disk succeeded")
	}
	return nil
}

// readOnlyRepo makes a repository with two trials in a folder of its own
// that other users may enter and read.
func readOnlyRepo(t *testing.T) (dir, loc string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "cubeview-ro-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755); os.RemoveAll(dir) })
	loc = filepath.Join(dir, "repository.db")
	r := openRepo(t, loc)
	importSynth(t, r, 1, "app", "exp", "a", "procs=4")
	importSynth(t, r, 2, "app", "exp", "b", "procs=8")
	r.Close()
	if err := os.Chmod(loc, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, loc
}

// runChild runs this test binary in a child mode, as user nobody when
// asUser (the tests run as root here, who may write any file).
func runChild(t *testing.T, mode string, asUser bool, attr *syscall.SysProcAttr) {
	t.Helper()
	bin := os.Args[0]
	if asUser {
		// The test binary sits in a folder only its owner may enter.
		d, err := os.MkdirTemp("", "cubeview-bin-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(d)
		os.Chmod(d, 0o755)
		data, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		bin = filepath.Join(d, "repo.test")
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			t.Fatal(err)
		}
		if attr == nil {
			attr = &syscall.SysProcAttr{}
		}
		attr.Credential = &syscall.Credential{Uid: 65534, Gid: 65534}
	}
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), "CUBEVIEW_CHILD="+mode, "HOME=/nonexistent")
	cmd.SysProcAttr = attr
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err != nil || !strings.HasSuffix(out.String(), "ok\n") {
		t.Fatalf("child %q: %v\n%s", strings.ReplaceAll(mode, "\x1e", " "), err, out.String())
	}
}

// TestReadOnlyFile: a user who may read an SQLite repository but not
// write it lists, searches, opens and dumps trials, whether or not the
// folder is writable (then without the shared-memory file a writer would
// make); opened for writing, it says it is read-only. (PostgreSQL: see
// TestReadOnlyRole.)
func TestReadOnlyFile(t *testing.T) {
	for _, folderWritable := range []bool{false, true} {
		t.Run(fmt.Sprintf("folder writable %v", folderWritable), func(t *testing.T) {
			dir, loc := readOnlyRepo(t)
			mode := os.FileMode(0o755)
			if folderWritable {
				mode = 0o777
			}
			os.Chmod(dir, mode)
			if os.Getuid() == 0 {
				runChild(t, "read\x1e"+loc, true, nil)
				return
			}
			os.Chmod(loc, 0o444)
			if !folderWritable {
				os.Chmod(dir, 0o555)
			}
			if err := childRead(loc); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestFullDisk: on a disk without one free byte, the read commands work
// and a change fails saying so.
func TestFullDisk(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("mounting a small, full file system needs root (the test runs as root under make test)")
	}
	_, loc := readOnlyRepo(t)
	mnt := t.TempDir()
	runChild(t, "full\x1e"+loc+"\x1e"+mnt, false, &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS})
}

// TestReadersDuringWrite: readers neither wait for nor take the write
// lock: while another program holds it, ls, find, open and dump work.
func TestReadersDuringWrite(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		w := openRepo(t, loc)
		id := importSynth(t, w, 1, "app", "exp", "a", "procs=4")
		tx, err := w.beginWrite(ctx, w.db, "test")
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.Exec(w.d.q(`UPDATE trial SET name = ? WHERE id = ?`), w.d.text("renamed"), id); err != nil {
			t.Fatal(err)
		}
		r, err := OpenReadOnly(ctx, loc)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		readEverything(t, r, id)
		if tr, _ := r.Trial(ctx, id); tr.Name != "a" {
			t.Errorf("a reader sees the uncommitted name %q", tr.Name)
		}
		e, err := r.Open(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.MetricTotal(model.MetricSel{Metric: 0, Inclusive: true}); err != nil {
			t.Fatal(err)
		}
	})
}

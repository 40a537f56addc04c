package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"cubeview/internal/testkit"
)

// windowLibraries are the libraries only windows need.
var windowLibraries = []string{"libX11.so.6", "libGL.so.1"}

// TestNoWindowLibrariesNeeded: on linux/amd64 the program does not link
// libX11 or libGL (no NEEDED entry), so that commands start on machines
// without them; windows load them when they open.
func TestNoWindowLibrariesNeeded(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the window libraries are loaded at run time on linux/amd64 only")
	}
	bin := cubeviewBinary(t)
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	for _, lib := range libs {
		for _, w := range windowLibraries {
			if lib == w {
				t.Errorf("the program needs %s (NEEDED entries: %v): a function of it is missing from windowlibs_linux_amd64.c (nm -D --undefined-only lists it)", lib, libs)
			}
		}
	}
}

// TestCommandsWithoutWindowLibraries runs commands in a mount namespace
// where libX11 and libGL are empty files (as on a machine without them):
// info works; a window request says in one line what it cannot load.
func TestCommandsWithoutWindowLibraries(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the window libraries are loaded at run time on linux/amd64 only")
	}
	bin := cubeviewBinary(t)
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare(1) to hide the libraries")
	}
	var hide []string
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, w := range windowLibraries {
		for _, dir := range []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"} {
			if real, err := filepath.EvalSymlinks(filepath.Join(dir, w)); err == nil {
				hide = append(hide, "mount --bind "+empty+" "+real)
				break
			}
		}
	}
	if len(hide) == 0 {
		t.Skip("libX11 and libGL are not installed: nothing to hide")
	}
	if out, err := exec.Command(unshare, "-m", "true").CombinedOutput(); err != nil {
		t.Skipf("cannot make a mount namespace (unshare -m: %v: %s)", err, out)
	}
	cpi := testkit.Data(t, "cube4", "cpi", "profile.cubex")
	run := func(args string) (string, error) {
		// DISPLAY names a display, so that only the libraries are missing.
		script := strings.Join(hide, " && ") + " && DISPLAY=:0 exec " + bin + " " + args
		out, err := exec.Command(unshare, "-m", "sh", "-c", script).CombinedOutput()
		return string(out), err
	}
	out, err := run("info " + cpi)
	if err != nil || !strings.HasPrefix(out, "Format:") {
		t.Errorf("info without the window libraries: %v\n%s", err, out)
	}
	out, err = run("tree " + cpi)
	if err != nil || !strings.Contains(out, "main") {
		t.Errorf("tree without the window libraries: %v\n%s", err, out)
	}
	out, err = run("--snapshot " + filepath.Join(t.TempDir(), "x.png") + " " + cpi)
	if err == nil || !strings.HasPrefix(out, "cannot open a window: ") || strings.Count(out, "\n") != 1 {
		t.Errorf("a window without the window libraries: %v\n%s", err, out)
	}
}

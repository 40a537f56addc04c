package repo

import (
	"strings"
	"testing"
)

func TestDefaultLocation(t *testing.T) {
	t.Setenv(EnvLocation, "")
	t.Setenv("XDG_DATA_HOME", "/data/home")
	if loc, _ := DefaultLocation(); loc != "/data/home/cubeview/repository.db" {
		t.Errorf("with XDG_DATA_HOME: %s", loc)
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/u")
	if loc, _ := DefaultLocation(); loc != "/home/u/.local/share/cubeview/repository.db" {
		t.Errorf("without XDG_DATA_HOME: %s", loc)
	}
	t.Setenv(EnvLocation, "postgres://db/x")
	if loc, _ := DefaultLocation(); loc != "postgres://db/x" {
		t.Errorf("with %s: %s", EnvLocation, loc)
	}
	r := &Repo{location: "postgres://user:secret@host/db"}
	if n := r.Name(); strings.Contains(n, "secret") {
		t.Errorf("Name shows the password: %s", n)
	}
}

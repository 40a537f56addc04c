package repo

import (
	"context"
	"testing"
)

// TestIdsNotReused: a trial id names one trial for the life of the
// repository, even after the newest trial is removed, so that a
// reference such as repo:3 written down earlier never names another run.
func TestIdsNotReused(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		a := importSynth(t, r, 1, "app", "exp", "a")
		b := importSynth(t, r, 2, "app", "exp", "b")
		if err := r.Remove(ctx, b); err != nil {
			t.Fatal(err)
		}
		c := importSynth(t, r, 3, "app", "exp", "c")
		if c == b || c < b || a >= b {
			t.Fatalf("ids %d, %d (removed), then %d: the id of a removed trial was given again", a, b, c)
		}
		// Also after every trial is gone and the repository reopened.
		if err := r.Remove(ctx, a, c); err != nil {
			t.Fatal(err)
		}
		r.Close()
		r = openRepo(t, loc)
		if d := importSynth(t, r, 4, "app", "exp", "d"); d <= c {
			t.Fatalf("id %d after %d was removed", d, c)
		}
	})
}

// TestTrialOrigin: an experiment opened from the repository says where
// it comes from — the repository's identity and the checksum and size of
// the imported file — for the provenance of results computed from it.
func TestTrialOrigin(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		id := importSynth(t, r, 1, "app", "exp", "a")
		tr, err := r.Trial(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		e, err := r.Open(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		o, ok := e.Origin()
		if !ok || o.Store != r.Identity() || len(o.Store) != 36 || o.SHA256 != tr.SHA256 || o.Size != tr.Size {
			t.Fatalf("origin %+v (%v), want repository %s, sha256 %s, size %d", o, ok, r.Identity(), tr.SHA256, tr.Size)
		}
		// The identity belongs to the repository, not to one opening.
		r2 := openRepo(t, loc)
		if r2.Identity() != r.Identity() {
			t.Errorf("identity %s, then %s", r.Identity(), r2.Identity())
		}
		if other := openRepo(t, sqliteLoc(t)); other.Identity() == r.Identity() {
			t.Error("two repositories share an identity")
		}
	})
}

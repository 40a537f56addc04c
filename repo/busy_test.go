package repo

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"cubeview/internal/synth"
	"cubeview/model"
)

// TestBusyRepository: a change that meets another program's change waits,
// says while waiting that the repository is busy and with what, and gives
// up after its wait with an error that says so — on both engines.
func TestBusyRepository(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		first := openRepo(t, loc)
		importSynth(t, first, 1, "app", "exp", "kept")
		inTx, release := make(chan bool), make(chan bool)
		var once sync.Once
		testHookBeforeCommit = func() {
			once.Do(func() {
				inTx <- true
				<-release
			})
		}
		defer func() { testHookBeforeCommit = nil }()
		done := make(chan error, 1)
		go func() {
			_, err := first.ImportExperiment(ctx, synth.Generate(synth.Config{Cnodes: 20, Locations: 4, Metrics: 2, Seed: 3}),
				Source{Path: "/runs/first.cubex", SHA256: "first"}, ImportOptions{})
			done <- err
		}()
		<-inTx
		var mu sync.Mutex
		var waits []Busy
		second, err := OpenWith(ctx, loc, Options{Wait: 2 * time.Second, Waiting: func(b Busy) {
			mu.Lock()
			waits = append(waits, b)
			mu.Unlock()
		}})
		if err != nil {
			t.Fatal(err)
		}
		defer second.Close()
		start := time.Now()
		_, err = second.ImportExperiment(ctx, synth.Generate(synth.Config{Cnodes: 20, Locations: 4, Metrics: 2, Seed: 4}),
			Source{Path: "/runs/second.cubex", SHA256: "second"}, ImportOptions{})
		waited := time.Since(start)
		var be *BusyError
		if !errors.As(err, &be) || !strings.Contains(err.Error(), "busy") || !strings.Contains(err.Error(), "import of first.cubex") {
			t.Fatalf("a change meeting a busy repository: %v", err)
		}
		if waited < 2*time.Second || waited > 30*time.Second {
			t.Errorf("gave up after %v, want about 2s", waited)
		}
		mu.Lock()
		if len(waits) == 0 || !strings.Contains(waits[len(waits)-1].Holder, "import of first.cubex") {
			t.Errorf("while waiting: %+v", waits)
		}
		mu.Unlock()
		close(release)
		if err := <-done; err != nil {
			t.Fatalf("the first import: %v", err)
		}
		if ts, _ := first.Trials(ctx, "", ListOptions{}); len(ts) != 2 {
			t.Errorf("%d trials, want the kept one and the first import", len(ts))
		}
	})
}

// TestShortWriteTransactions: an import holds the repository only for
// short moments, so another change goes through while it runs.
func TestShortWriteTransactions(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		r := openRepo(t, loc)
		id := importSynth(t, r, 1, "app", "exp", "kept")
		staged, release := make(chan bool), make(chan bool)
		var once sync.Once
		testHookStaged = func() {
			once.Do(func() {
				staged <- true
				<-release
			})
		}
		defer func() { testHookStaged = nil }()
		done := make(chan error, 1)
		go func() {
			_, err := r.ImportExperiment(ctx, synth.Generate(synth.Config{Cnodes: 50, Locations: 8, Metrics: 3, Seed: 5}),
				Source{Path: "/runs/long.cubex", SHA256: "long"}, ImportOptions{})
			done <- err
		}()
		<-staged
		other, err := OpenWith(ctx, loc, Options{Wait: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		if err := other.SetAttrs(ctx, id, []model.Attr{{Key: "note", Value: "set during an import"}}, nil); err != nil {
			t.Errorf("a change while an import runs: %v", err)
		}
		if ts, _ := other.Trials(ctx, "", ListOptions{}); len(ts) != 1 {
			t.Errorf("the import in progress is visible: %d trials", len(ts))
		}
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}

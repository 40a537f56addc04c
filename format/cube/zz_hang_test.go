package cube

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestZZHang(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/data/cube4/*/*.cubex")
	var seeds [][]byte
	for _, p := range files {
		d, _ := os.ReadFile(p)
		seeds = append(seeds, d)
	}
	seeds = append(seeds, fuzzSeeds(t)...)
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 3000; it++ {
		s := seeds[rng.IntN(len(seeds))]
		d := bytes.Clone(s)
		for k := 0; k < 1+rng.IntN(4); k++ {
			i := rng.IntN(len(d))
			switch rng.IntN(3) {
			case 0:
				d[i] = byte(rng.IntN(256))
			case 1:
				d[i] = "0123456789"[rng.IntN(10)]
			case 2:
				d[i] ^= 1 << rng.IntN(8)
			}
		}
		done := make(chan bool)
		start := time.Now()
		go func() {
			e, err := ReadCubex(bytes.NewReader(d), int64(len(d)), "f")
			if err == nil && e.Validate() == nil {
				for m := range e.Metrics {
					e.Block(m)
				}
			}
			close(done)
		}()
		select {
		case <-done:
			if el := time.Since(start); el > 500*time.Millisecond {
				fmt.Println("slow", it, el)
				os.WriteFile(fmt.Sprintf("/tmp/hang/slow%d", it), d, 0o644)
			}
		case <-time.After(5 * time.Second):
			os.WriteFile("/tmp/hang/hang", d, 0o644)
			t.Fatalf("hang at iteration %d", it)
		}
	}
}

package repo

import (
	"context"
	"math"
	"testing"

	"cubeview/internal/testkit"
	"cubeview/model"
)

// TestSQLViews: SQL users read the stored trials through the documented
// views — names as text (PostgreSQL), definitions, and in PostgreSQL the
// values per call path, per region and per location — and they agree
// with the experiments. The tables of earlier schemas that no query read
// are gone.
func TestSQLViews(t *testing.T) {
	eachEngine(t, func(t *testing.T, loc string) {
		r := openRepo(t, loc)
		ctx := context.Background()
		path := testkit.Data(t, "cube4", "cpi", "profile.cubex")
		id, err := r.Import(ctx, path, ImportOptions{App: "cpi"})
		if err != nil {
			t.Fatal(err)
		}
		importSynth(t, r, 1, "app", "exp", "other", "procs=5")
		e, err := r.Open(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		one := func(q string, args ...any) (n int) {
			t.Helper()
			if err := r.db.QueryRow(r.d.q(q), args...).Scan(&n); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			return n
		}
		for table, want := range map[string]int{"location_total": 0, "cnode_stat": 0, "metric_data": 0} {
			if r.Engine() == "postgres" {
				if n := one(`SELECT COUNT(*) FROM information_schema.tables WHERE table_name = ?`, table); n != want {
					t.Errorf("table %s exists", table)
				}
			} else if n := one(`SELECT COUNT(*) FROM sqlite_master WHERE name = ?`, table); n != want {
				t.Errorf("table %s exists", table)
			}
		}
		if r.Engine() == "postgres" {
			for _, col := range [][2]string{{"trial", "name"}, {"metric", "uniq"}, {"region", "name"}, {"trial_attr", "value"}, {"application", "name"}} {
				var typ string
				if err := r.db.QueryRow(`SELECT data_type FROM information_schema.columns WHERE table_name = $1 AND column_name = $2`, col[0], col[1]).Scan(&typ); err != nil || typ != "text" {
					t.Errorf("%s.%s is %q (%v), want text", col[0], col[1], typ, err)
				}
			}
		}
		var name, app string
		if err := r.db.QueryRow(r.d.q(`SELECT name, application FROM trials WHERE trial = ?`), id).Scan(&name, &app); err != nil || name != "cpi" || app != "cpi" {
			t.Errorf("trials view: %q %q %v", name, app, err)
		}
		if n := one(`SELECT COUNT(*) FROM trial_attributes WHERE key = 'procs' AND number = 5`); n != 1 {
			t.Errorf("trial_attributes: %d trials with procs = 5", n)
		}
		if n := one(`SELECT COUNT(*) FROM metrics WHERE trial = ?`, id); n != len(e.Metrics) {
			t.Errorf("metrics view: %d, want %d", n, len(e.Metrics))
		}
		if n := one(`SELECT COUNT(*) FROM regions WHERE trial = ? AND kind = 'mpi'`, id); n == 0 {
			t.Error("regions view: no MPI region")
		}
		if n := one(`SELECT COUNT(*) FROM call_paths WHERE trial = ?`, id); n != len(e.Cnodes) {
			t.Errorf("call_paths view: %d, want %d", n, len(e.Cnodes))
		}
		if n := one(`SELECT COUNT(*) FROM locations WHERE trial = ? AND process = 'MPI Rank 2'`, id); n != 1 {
			t.Errorf("locations view: %d locations of MPI Rank 2", n)
		}
		var total float64
		if err := r.db.QueryRow(r.d.q(`SELECT total FROM metrics WHERE trial = ? AND name = 'time'`), id).Scan(&total); err != nil {
			t.Fatal(err)
		}
		m := e.MetricByName("time")
		if want, _ := e.MetricTotal(model.MetricSel{Metric: m, Inclusive: true}); total != want {
			t.Errorf("metrics view: total time %v, want %v", total, want)
		}
		if r.Engine() != "postgres" {
			return
		}
		ms := model.MetricSel{Metric: m, Inclusive: true}
		excl, _ := e.CallTreeValues(ms, false)
		incl := e.CallInclusive(excl, e.Metrics[m].Aggregation)
		n := 0
		err = r.rows(ctx, `SELECT cnode, exclusive, inclusive FROM call_path_values WHERE trial = ? AND metric = 'time' ORDER BY cnode`, []any{id},
			func(s scanner) error {
				var c int
				var x, y float64
				if err := s.Scan(&c, &x, &y); err != nil {
					return err
				}
				if x != excl[c] || y != incl[c] {
					t.Errorf("call_path_values at %d: %v %v, want %v %v", c, x, y, excl[c], incl[c])
				}
				n++
				return nil
			})
		if err != nil || n != len(e.Cnodes) {
			t.Fatalf("call_path_values: %d rows, %v", n, err)
		}
		rx, ri, _ := e.FlatProfileOf(ms)
		n = 0
		err = r.rows(ctx, `SELECT region, exclusive, inclusive FROM region_values WHERE trial = ? AND metric = 'time'`, []any{id},
			func(s scanner) error {
				var g int
				var x, y float64
				if err := s.Scan(&g, &x, &y); err != nil {
					return err
				}
				if x != rx[g] || y != ri[g] {
					t.Errorf("region_values at %d: %v %v, want %v %v", g, x, y, rx[g], ri[g])
				}
				n++
				return nil
			})
		if err != nil || n != len(e.Regions) {
			t.Fatalf("region_values: %d rows, %v", n, err)
		}
		b, err := e.Block(m)
		if err != nil {
			t.Fatal(err)
		}
		n = 0
		err = r.rows(ctx, `SELECT cnode, location, value FROM location_values WHERE trial = ? AND metric = 'time'`, []any{id},
			func(s scanner) error {
				var c, l int
				var v float64
				if err := s.Scan(&c, &l, &v); err != nil {
					return err
				}
				if w := b.Value(c, l); v != w && !(math.IsNaN(v) && math.IsNaN(w)) {
					t.Errorf("location_values at (%d, %d): %v, want %v", c, l, v, w)
				}
				n++
				return nil
			})
		if err != nil || n != b.StoredRows()*e.NumLocations() {
			t.Fatalf("location_values: %d rows, want %d, %v", n, b.StoredRows()*e.NumLocations(), err)
		}
		// Every bit pattern comes through SQL's decoding.
		for _, v := range []float64{0, math.Copysign(0, -1), 1, -2.5, math.SmallestNonzeroFloat64, math.MaxFloat64, 1e-310, math.Inf(1), math.Inf(-1), math.Pi} {
			var got float64
			if err := r.db.QueryRow(`SELECT cubeview_vector_value($1, 0)`, encodeVector([]float64{v})).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if math.Float64bits(got) != math.Float64bits(v) {
				t.Errorf("SQL decodes %v as %v", v, got)
			}
		}
	})
}

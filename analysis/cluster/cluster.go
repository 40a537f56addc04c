package cluster

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"cubeview/model"
)

// Options steer Locations.
type Options struct {
	// K is the number of clusters wanted; 0 chooses it by silhouette.
	K int
	// MaxK is the largest k tried when K is 0 (0: DefaultMaxK).
	MaxK int
	// Seed seeds k-means++ (0: DefaultSeed).
	Seed uint64
}

// Defaults of Options and the rules of the package documentation.
const (
	DefaultMaxK = 8
	DefaultSeed = 0x6b6d65616e73 // "kmeans"

	varianceKept   = 0.99   // share of the variance the distances keep
	maxDimensions  = 128    // call paths the distances use at most
	maxPool        = 512    // call paths of the largest variance kept for the rounds
	minStructure   = 0.25   // silhouette below which k automatic gives one cluster
	minSeparation  = 2.0    // distance of centres over the sum of the spreads along it
	silhouetteMax  = 2048   // locations over which the silhouette is exact
	outlierMADs    = 5      // robust sigmas beyond the median distance
	minRobust      = 5      // members of a cluster that tell its own spread
	minOutlierDist = 0.05   // an outlier differs by at least this share of a location's total
	outlierRounds  = 4      // rounds of setting outliers aside
	starts         = 5      // seeded k-means++ starts per k
	maxIterations  = 100    // Lloyd iterations per start
	madToSigma     = 1.4826 // MAD of a normal distribution × this = σ
)

// Result is a clustering of an experiment's locations.
type Result struct {
	Metric int // the metric clustered (index in the experiment)
	// Auto tells that k was chosen by silhouette; Scores are the mean
	// silhouettes of the k tried in the last round.
	Auto   bool
	Scores []Score
	// Silhouette is the mean silhouette of the clusters found (0 for a
	// single cluster, where it is not defined).
	Silhouette float64
	Clusters   []Cluster
	Outliers   []Outlier
	// Of gives each location (data column) its cluster, or -1 for an outlier.
	Of []int
	// Scale is the average location's total absolute value: the unit
	// of distances.
	Scale float64
	// Paths counts the call paths with a value; Used those the distances
	// are made of, rotated onto their principal axes of which Components
	// are kept, holding VarianceKept of the variance across locations.
	Paths, Used, Components int
	VarianceKept            float64
}

// Score is the mean silhouette of a clustering into K clusters and
// whether its clusters are separated (see the package documentation).
type Score struct {
	K          int
	Silhouette float64
	Separated  bool
}

// Cluster is a group of locations that behave alike.
type Cluster struct {
	// Members are location columns in canonical order (process rank,
	// thread rank).
	Members []int
	// Centroid holds, per cnode, the members' mean value.
	Centroid []float64
	// Radius is the members' mean distance to the centroid, in units of
	// Result.Scale.
	Radius float64
}

// Outlier is a location far from every centroid.
type Outlier struct {
	Location int
	// Distance to the nearest centroid, in units of Result.Scale, and
	// that cluster.
	Distance float64
	Nearest  int
	// Values holds the location's value per cnode.
	Values []float64
}

// Locations clusters e's locations by their exclusive values of metric
// per call path, as the package documentation describes.
func Locations(e *model.Experiment, metric int, opt Options) (*Result, error) {
	if metric < 0 || metric >= len(e.Metrics) {
		return nil, fmt.Errorf("%s: no metric %d", e.Source, metric)
	}
	if opt.K < 0 {
		return nil, fmt.Errorf("k = %d: want k ≥ 1, or 0 for automatic", opt.K)
	}
	if opt.MaxK <= 0 {
		opt.MaxK = DefaultMaxK
	}
	if opt.Seed == 0 {
		opt.Seed = DefaultSeed
	}
	name := e.Metrics[metric].UniqName
	n := e.NumLocations()
	if n < 2 {
		return nil, fmt.Errorf("%s has %d location%s: nothing to cluster", e.Source, n, map[bool]string{true: "", false: "s"}[n == 1])
	}
	b, err := e.PointValues(model.MetricSel{Metric: metric, Inclusive: true}, false)
	if err != nil {
		return nil, fmt.Errorf("%s: metric %q: %w", e.Source, name, err)
	}
	order := canonicalOrder(e)
	st, err := scanStats(b, order)
	if err != nil {
		return nil, fmt.Errorf("%s: metric %q: %w", e.Source, name, err)
	}
	if st.scale == 0 {
		return nil, fmt.Errorf("%s: metric %q is 0 at every location: nothing to cluster", e.Source, name)
	}
	r := &Result{Metric: metric, Auto: opt.K == 0, Scale: st.scale, Paths: st.paths}
	feats, _ := selectFeatures(st.vars, maxPool, 1)
	pool, err := gather(b, order, feats, st.scale)
	if err != nil {
		return nil, fmt.Errorf("%s: metric %q: %w", e.Source, name, err)
	}

	c := &clusterer{pool: pool, opt: opt}
	labels, outliers, scores := c.run(n)
	sp := c.sp
	r.Scores, r.Used, r.Components, r.VarianceKept = scores, c.paths, sp.d, c.kept
	r.Of = make([]int, n)
	// Number clusters by size, then by first member (canonical order).
	type group struct{ members []int }
	byLabel := map[int]*group{}
	var groups []*group
	for i, lab := range labels {
		if lab < 0 {
			continue
		}
		g := byLabel[lab]
		if g == nil {
			g = &group{}
			byLabel[lab] = g
			groups = append(groups, g)
		}
		g.members = append(g.members, i)
	}
	slices.SortStableFunc(groups, func(a, b *group) int {
		return cmp.Or(cmp.Compare(len(b.members), len(a.members)), cmp.Compare(a.members[0], b.members[0]))
	})
	final := make([]int, n) // per canonical index
	for i := range final {
		final[i] = -1
	}
	for j, g := range groups {
		for _, i := range g.members {
			final[i] = j
		}
	}
	centers := sp.centers(final, len(groups))
	r.Clusters = make([]Cluster, len(groups))
	for j, g := range groups {
		cl := &r.Clusters[j]
		cl.Members = make([]int, len(g.members))
		sum := 0.0
		for k, i := range g.members {
			cl.Members[k] = order[i]
			sum += math.Sqrt(sqDist(sp.point(i), centers[j]))
		}
		cl.Radius = sum / float64(len(g.members))
	}
	for i, l := range order {
		r.Of[l] = final[i]
	}
	for _, i := range outliers {
		near, d := nearest(sp.point(i), centers)
		r.Outliers = append(r.Outliers, Outlier{Location: order[i], Distance: math.Sqrt(d), Nearest: near})
	}
	slices.SortStableFunc(r.Outliers, func(a, b Outlier) int { return cmp.Compare(b.Distance, a.Distance) })
	if len(groups) > 1 {
		r.Silhouette = c.silhouette(final, len(groups))
	}
	if err := r.fullCentroids(e, b, order); err != nil {
		return nil, fmt.Errorf("%s: metric %q: %w", e.Source, name, err)
	}
	return r, nil
}

// canonicalOrder returns the location columns ordered by process rank,
// thread rank, process name, location name and, for locations equal in
// all of these, column.
func canonicalOrder(e *model.Experiment) []int {
	type key struct {
		proc, thread int
		pname, name  string
	}
	keys := make([]key, e.NumLocations())
	for l := range keys {
		s := e.Location(l)
		k := key{thread: s.Rank, name: s.Name}
		if p := s.Parent; p >= 0 {
			k.proc, k.pname = e.System[p].Rank, e.System[p].Name
		}
		keys[l] = k
	}
	order := make([]int, len(keys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ka, kb := keys[a], keys[b]
		return cmp.Or(cmp.Compare(ka.proc, kb.proc), cmp.Compare(ka.thread, kb.thread),
			cmp.Compare(ka.pname, kb.pname), cmp.Compare(ka.name, kb.name))
	})
	return order
}

// stats are what one pass over the metric's rows learns.
type stats struct {
	vars  []float64 // per cnode: variance across locations (raw units); 0 when constant or absent
	scale float64   // average location's total absolute value
	paths int       // cnodes with a non-zero value
}

func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

func scanStats(b *model.Block, order []int) (stats, error) {
	n := len(order)
	st := stats{vars: make([]float64, b.NumCnodes())}
	abs := make([]float64, n)
	buf := make([]float64, n)
	err := b.Scan(func(c int, row []float64) error {
		sum, nonzero := 0.0, false
		for i, l := range order {
			v := finite(row[l])
			buf[i] = v
			sum += v
			abs[i] += math.Abs(v)
			nonzero = nonzero || v != 0
		}
		if !nonzero {
			return nil
		}
		st.paths++
		mean := sum / float64(n)
		ss := 0.0
		for _, v := range buf {
			d := v - mean
			ss += d * d
		}
		st.vars[c] = ss / float64(n)
		return nil
	})
	if err == nil {
		err = b.Err()
	}
	total := 0.0
	for _, a := range abs {
		total += a
	}
	st.scale = total / float64(n)
	return st, err
}

// selectFeatures returns the indices of vars to use: by decreasing
// variance until they hold share of it, at most limit; and the share
// of the variance they hold.
func selectFeatures(vars []float64, limit int, share float64) ([]int, float64) {
	var cs []int
	total := 0.0
	for c, v := range vars {
		if v > 0 {
			cs = append(cs, c)
		}
	}
	slices.SortStableFunc(cs, func(a, b int) int { return cmp.Compare(vars[b], vars[a]) })
	for _, c := range cs {
		total += vars[c]
	}
	if total == 0 {
		return nil, 1
	}
	kept := 0.0
	for i, c := range cs {
		if i == limit || kept >= share*total {
			cs = cs[:i]
			break
		}
		kept += vars[c]
	}
	return cs, kept / total
}

// gather builds the normalised vectors of the selected features, one per
// location in canonical order.
func gather(b *model.Block, order, feats []int, scale float64) (*space, error) {
	sp := &space{d: len(feats), n: len(order)}
	sp.x = make([]float64, sp.n*sp.d)
	if sp.d == 0 {
		return sp, nil
	}
	col := make(map[int]int, len(feats))
	for j, c := range feats {
		col[c] = j
	}
	err := b.Scan(func(c int, row []float64) error {
		j, ok := col[c]
		if !ok {
			return nil
		}
		for i, l := range order {
			sp.x[i*sp.d+j] = finite(row[l]) / scale
		}
		return nil
	})
	if err == nil {
		err = b.Err()
	}
	return sp, err
}

// fullCentroids fills every cluster's centroid and every outlier's
// values over all cnodes.
func (r *Result) fullCentroids(e *model.Experiment, b *model.Block, order []int) error {
	nc := len(e.Cnodes)
	for j := range r.Clusters {
		r.Clusters[j].Centroid = make([]float64, nc)
	}
	for o := range r.Outliers {
		r.Outliers[o].Values = make([]float64, nc)
	}
	err := b.Scan(func(c int, row []float64) error {
		for j := range r.Clusters {
			cl := &r.Clusters[j]
			sum := 0.0
			for _, l := range cl.Members {
				sum += finite(row[l])
			}
			cl.Centroid[c] = sum / float64(len(cl.Members))
		}
		for o := range r.Outliers {
			r.Outliers[o].Values[c] = finite(row[r.Outliers[o].Location])
		}
		return nil
	})
	if err == nil {
		err = b.Err()
	}
	// Rounding residue of exclusive values (CUBE 4 files store inclusive
	// metrics) is no difference between locations.
	tiny := 1e-12 * r.Scale
	for j := range r.Clusters {
		for c, v := range r.Clusters[j].Centroid {
			if math.Abs(v) < tiny {
				r.Clusters[j].Centroid[c] = 0
			}
		}
	}
	for o := range r.Outliers {
		for c, v := range r.Outliers[o].Values {
			if math.Abs(v) < tiny {
				r.Outliers[o].Values[c] = 0
			}
		}
	}
	return err
}

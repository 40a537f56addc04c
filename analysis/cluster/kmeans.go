package cluster

import (
	"math"
	"math/rand/v2"
	"slices"
)

// space holds n normalised vectors of d dimensions, row by row, in
// canonical location order.
type space struct {
	x    []float64
	n, d int
}

func (s *space) point(i int) []float64 { return s.x[i*s.d : (i+1)*s.d : (i+1)*s.d] }

// centers returns the mean vector of each of k labels; labels holds one
// label per point, -1 for none.
func (s *space) centers(labels []int, k int) [][]float64 {
	cents := make([][]float64, k)
	counts := make([]int, k)
	for j := range cents {
		cents[j] = make([]float64, s.d)
	}
	for i, j := range labels {
		if j < 0 {
			continue
		}
		counts[j]++
		for t, v := range s.point(i) {
			cents[j][t] += v
		}
	}
	for j, c := range cents {
		for t := range c {
			c[t] /= float64(max(counts[j], 1))
		}
	}
	return cents
}

// sqDist returns the squared Euclidean distance of a and b.
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		d0, d1, d2, d3 := a[i]-b[i], a[i+1]-b[i+1], a[i+2]-b[i+2], a[i+3]-b[i+3]
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(a); i++ {
		d := a[i] - b[i]
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// nearest returns the index of the centre nearest to p (the first of
// equals) and its squared distance.
func nearest(p []float64, cents [][]float64) (int, float64) {
	best, bd := 0, math.Inf(1)
	for j, c := range cents {
		if d := sqDist(p, c); d < bd {
			best, bd = j, d
		}
	}
	return best, bd
}

// clusterer runs the rounds of clustering and setting outliers aside.
type clusterer struct {
	pool  *space  // the call paths of the largest variance over all locations
	sp    *space  // the call paths of the round's distances
	kept  float64 // share of the variance the round's space holds
	paths int     // call paths it is made of
	tol   float64 // squared centre shift at which Lloyd's iterations stop
	opt   Options
}

// reduce sets the round's space: the pool's call paths that carry
// varianceKept of the variance across the active points, at most
// maxDimensions.
func (c *clusterer) reduce(active []int) {
	p := c.pool
	vars := make([]float64, p.d)
	mean := c.meanOf(p, active)
	for _, i := range active {
		for t, v := range p.point(i) {
			d := v - mean[t]
			vars[t] += d * d
		}
	}
	cols, kept := selectFeatures(vars, maxDimensions, 1)
	sp := &space{n: p.n, d: len(cols), x: make([]float64, p.n*len(cols))}
	for i := range p.n {
		src, dst := p.point(i), sp.point(i)
		for j, t := range cols {
			dst[j] = src[t]
		}
	}
	c.paths = len(cols)
	sp, share := principal(sp, active, varianceKept)
	c.sp, c.kept = sp, kept*share
	// Centres that move less than this have converged (scikit-learn's
	// rule: 1e-4 of the mean variance per dimension).
	c.tol = 0
	if sp.d > 0 {
		mean := c.meanOf(sp, active)
		for _, i := range active {
			c.tol += sqDist(sp.point(i), mean)
		}
		c.tol *= 1e-4 / float64(len(active)*sp.d)
	}
}

// run clusters points 0…n−1 and returns each point's label (-1 for an
// outlier), the outliers and the silhouettes of the last round's k.
func (c *clusterer) run(n int) (labels, outliers []int, scores []Score) {
	active := make([]int, n)
	for i := range active {
		active[i] = i
	}
	labels = make([]int, n)
	for i := range labels {
		labels[i] = -1
	}
	for round := 0; ; round++ {
		c.reduce(active)
		lab, cents, sc := c.partition(active, round)
		scores = sc
		found := c.outliers(active, lab, cents)
		if 2*len(found) >= len(active) {
			found = nil // no typical behaviour to be far from
		}
		last := len(found) == 0 || round == outlierRounds-1
		if last {
			for p, i := range active {
				if !slices.Contains(found, i) {
					labels[i] = lab[p]
				}
			}
			outliers = append(outliers, found...)
			break
		}
		outliers = append(outliers, found...)
		active = slices.DeleteFunc(active, func(i int) bool { return slices.Contains(found, i) })
	}
	slices.Sort(outliers)
	return labels, outliers, scores
}

func (c *clusterer) rng(k, round int) *rand.Rand {
	return rand.New(rand.NewPCG(c.opt.Seed, uint64(round)<<32|uint64(k)))
}

// partition clusters the active points: into opt.K clusters, or into the
// k of the best silhouette. lab holds a label per active position.
func (c *clusterer) partition(active []int, round int) (lab []int, cents [][]float64, scores []Score) {
	one := func() ([]int, [][]float64) {
		lab := make([]int, len(active))
		return lab, [][]float64{c.mean(active)}
	}
	if c.sp.d == 0 {
		lab, cents = one()
		return lab, cents, nil
	}
	if c.opt.K > 0 {
		lab, cents = c.kmeans(active, min(c.opt.K, len(active)), c.rng(c.opt.K, round))
		return lab, cents, nil
	}
	kmax := min(c.opt.MaxK, len(active)-1)
	sample := c.sample(active, round)
	dm := c.distances(active, sample)
	best := math.Inf(-1)
	sampleLab := make([]int, len(sample))
	for k := 2; k <= kmax; k++ {
		l, ce := c.kmeans(active, k, c.rng(k, round))
		for q, p := range sample {
			sampleLab[q] = l[p]
		}
		s := silhouette(dm, sampleLab, len(ce))
		sep := c.separated(active, l, ce)
		scores = append(scores, Score{K: k, Silhouette: s, Separated: sep})
		if s > best && sep {
			best, lab, cents = s, l, ce
		}
	}
	if best < minStructure {
		lab, cents = one()
	}
	return lab, cents, scores
}

func (c *clusterer) mean(active []int) []float64 { return c.meanOf(c.sp, active) }

func (c *clusterer) meanOf(sp *space, active []int) []float64 {
	m := make([]float64, sp.d)
	for _, i := range active {
		for t, v := range sp.point(i) {
			m[t] += v
		}
	}
	for t := range m {
		m[t] /= float64(len(active))
	}
	return m
}

// kmeans runs Lloyd's iterations from several k-means++ seedings and
// keeps the partition of the least within-cluster sum of squares.
func (c *clusterer) kmeans(active []int, k int, rng *rand.Rand) (lab []int, cents [][]float64) {
	best := math.Inf(1)
	for range starts {
		ce := c.seed(active, k, rng)
		l, ce, inertia := c.lloyd(active, ce)
		if inertia < best {
			best, lab, cents = inertia, l, ce
		}
	}
	return lab, cents
}

// seed picks k centres by greedy k-means++: each next centre is the best
// of a few candidates drawn with probability proportional to the squared
// distance to the centres so far. Fewer centres come back when fewer
// points differ.
func (c *clusterer) seed(active []int, k int, rng *rand.Rand) [][]float64 {
	pt := func(p int) []float64 { return c.sp.point(active[p]) }
	cents := [][]float64{slices.Clone(pt(rng.IntN(len(active))))}
	d2 := make([]float64, len(active))
	for p := range active {
		d2[p] = sqDist(pt(p), cents[0])
	}
	trials := 2 + int(math.Log(float64(k)))
	cand := make([]float64, len(active))
	bestD := make([]float64, len(active))
	for len(cents) < k {
		total := 0.0
		for _, v := range d2 {
			total += v
		}
		if total == 0 {
			break
		}
		bestPot, bestP := math.Inf(1), -1
		for range trials {
			r := rng.Float64() * total
			p, acc := -1, 0.0
			for q, v := range d2 {
				if v == 0 {
					continue
				}
				p = q
				if acc += v; acc > r {
					break
				}
			}
			pot := 0.0
			for q := range active {
				cand[q] = min(d2[q], sqDist(pt(q), pt(p)))
				pot += cand[q]
			}
			if pot < bestPot {
				bestPot, bestP = pot, p
				copy(bestD, cand)
			}
		}
		cents = append(cents, slices.Clone(pt(bestP)))
		copy(d2, bestD)
	}
	return cents
}

// lloyd alternates assignment and centre update until no point moves
// or the centres move less than c.tol.
// A cluster left empty takes the point farthest from its centre.
func (c *clusterer) lloyd(active []int, cents [][]float64) ([]int, [][]float64, float64) {
	k, d := len(cents), c.sp.d
	lab := make([]int, len(active))
	for p := range lab {
		lab[p] = -1
	}
	counts := make([]int, k)
	prev := make([][]float64, k)
	for j := range prev {
		prev[j] = make([]float64, d)
	}
	assign := func() bool {
		changed := false
		for p, i := range active {
			if j, _ := nearest(c.sp.point(i), cents); lab[p] != j {
				lab[p], changed = j, true
			}
		}
		return changed
	}
	for range maxIterations {
		if !assign() {
			break
		}
		for j := range cents {
			copy(prev[j], cents[j])
		}
		clear(counts)
		for j := range cents {
			clear(cents[j])
		}
		for p, i := range active {
			j := lab[p]
			counts[j]++
			for t, v := range c.sp.point(i) {
				cents[j][t] += v
			}
		}
		for j := range cents {
			if counts[j] > 0 {
				for t := range d {
					cents[j][t] /= float64(counts[j])
				}
			}
		}
		for j := range cents {
			if counts[j] > 0 {
				continue
			}
			far, fd := -1, -1.0
			for p, i := range active {
				if o := lab[p]; counts[o] > 1 {
					if dd := sqDist(c.sp.point(i), cents[o]); dd > fd {
						far, fd = p, dd
					}
				}
			}
			if far < 0 {
				break
			}
			counts[lab[far]]--
			copy(cents[j], c.sp.point(active[far]))
			lab[far], counts[j] = j, 1
		}
		shift := 0.0
		for j := range cents {
			shift += sqDist(prev[j], cents[j])
		}
		if shift <= c.tol {
			assign()
			break
		}
	}
	inertia := 0.0
	for p, i := range active {
		inertia += sqDist(c.sp.point(i), cents[lab[p]])
	}
	return lab, cents, inertia
}

// sample returns the positions in active over which silhouettes are
// computed: all of them, or a seeded sample of silhouetteMax.
func (c *clusterer) sample(active []int, round int) []int {
	pos := make([]int, len(active))
	for p := range pos {
		pos[p] = p
	}
	if len(pos) <= silhouetteMax {
		return pos
	}
	rng := rand.New(rand.NewPCG(c.opt.Seed, 0x5111<<32|uint64(round)))
	rng.Shuffle(len(pos), func(a, b int) { pos[a], pos[b] = pos[b], pos[a] })
	pos = pos[:silhouetteMax]
	slices.Sort(pos)
	return pos
}

// distances returns the matrix of distances between the sampled points.
func (c *clusterer) distances(active, sample []int) []float32 {
	m := len(sample)
	dm := make([]float32, m*m)
	for a := range m {
		pa := c.sp.point(active[sample[a]])
		for b := a + 1; b < m; b++ {
			d := float32(math.Sqrt(sqDist(pa, c.sp.point(active[sample[b]]))))
			dm[a*m+b], dm[b*m+a] = d, d
		}
	}
	return dm
}

// silhouette returns the mean silhouette (Rousseeuw 1987) of the
// labelled points whose distances dm holds; a point alone in its
// cluster scores 0.
func silhouette(dm []float32, lab []int, k int) float64 {
	m := len(lab)
	if m == 0 {
		return 0
	}
	counts := make([]int, k)
	for _, j := range lab {
		counts[j]++
	}
	sums := make([]float64, k)
	total := 0.0
	for p := range m {
		clear(sums)
		row := dm[p*m : (p+1)*m]
		for q, d := range row {
			sums[lab[q]] += float64(d)
		}
		own := lab[p]
		if counts[own] < 2 {
			continue
		}
		a := sums[own] / float64(counts[own]-1)
		b := math.Inf(1)
		for j, s := range sums {
			if j != own && counts[j] > 0 {
				b = min(b, s/float64(counts[j]))
			}
		}
		if math.IsInf(b, 1) || max(a, b) == 0 {
			continue
		}
		total += (b - a) / max(a, b)
	}
	return total / float64(m)
}

// silhouette returns the mean silhouette of a final labelling (one label
// per point, -1 for outliers, which are left out).
func (c *clusterer) silhouette(labels []int, k int) float64 {
	var active, lab []int
	for i, j := range labels {
		if j >= 0 {
			active = append(active, i)
			lab = append(lab, j)
		}
	}
	sample := c.sample(active, outlierRounds)
	sampleLab := make([]int, len(sample))
	for q, p := range sample {
		sampleLab[q] = lab[p]
	}
	return silhouette(c.distances(active, sample), sampleLab, k)
}

// outliers returns the active points far from every centroid: farther
// than their cluster's limit from each other cluster's centre and from
// their own cluster's centre computed without them. A cluster's limit is
// median + outlierMADs robust standard deviations of its members'
// distances to its centre (of all active points' distances for a
// cluster of fewer than minRobust members, too few to tell a spread),
// and at least minOutlierDist.
func (c *clusterer) outliers(active, lab []int, cents [][]float64) []int {
	k := len(cents)
	own := make([]float64, len(active))
	dists := make([][]float64, k)
	for p, i := range active {
		own[p] = math.Sqrt(sqDist(c.sp.point(i), cents[lab[p]]))
		dists[lab[p]] = append(dists[lab[p]], own[p])
	}
	limitOf := func(d []float64) float64 {
		med := median(d)
		dev := make([]float64, len(d))
		for p, v := range d {
			dev[p] = math.Abs(v - med)
		}
		return max(med+outlierMADs*madToSigma*median(dev), minOutlierDist)
	}
	all := limitOf(slices.Clone(own))
	limits := make([]float64, k)
	for j, d := range dists {
		limits[j] = all
		if len(d) >= minRobust {
			limits[j] = limitOf(d)
		}
	}
	var found []int
	for p, i := range active {
		far := math.Inf(1)
		if m := float64(len(dists[lab[p]])); m > 1 {
			far = own[p] * m / (m - 1)
		}
		for j, ce := range cents {
			if j != lab[p] {
				far = min(far, math.Sqrt(sqDist(c.sp.point(i), ce)))
			}
		}
		if far > limits[lab[p]] {
			found = append(found, i)
		}
	}
	return found
}

// median returns the median of v, which it sorts.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	h := len(v) / 2
	if len(v)%2 == 1 {
		return v[h]
	}
	return (v[h-1] + v[h]) / 2
}

// separated reports whether every cluster has two members or more and
// every pair of clusters stands apart: their centres are at least
// minSeparation times the sum of their members' standard deviations
// along the line through both centres apart. A unimodal cloud cut in
// two scores about 1.3 (normal) to 1.7 (uniform); two normal clouds
// score about their distance over 2σ.
func (c *clusterer) separated(active, lab []int, cents [][]float64) bool {
	members := make([][]int, len(cents))
	for p, j := range lab {
		members[j] = append(members[j], active[p])
	}
	for _, m := range members {
		if len(m) < 2 {
			return false
		}
	}
	u := make([]float64, c.sp.d)
	spread := func(m []int, centre []float64) float64 {
		ss := 0.0
		for _, i := range m {
			proj := 0.0
			for t, v := range c.sp.point(i) {
				proj += (v - centre[t]) * u[t]
			}
			ss += proj * proj
		}
		return math.Sqrt(ss / float64(len(m)))
	}
	for a := range cents {
		for b := a + 1; b < len(cents); b++ {
			dist := math.Sqrt(sqDist(cents[a], cents[b]))
			if dist == 0 {
				return false
			}
			for t := range u {
				u[t] = (cents[b][t] - cents[a][t]) / dist
			}
			if dist < minSeparation*(spread(members[a], cents[a])+spread(members[b], cents[b])) {
				return false
			}
		}
	}
	return true
}

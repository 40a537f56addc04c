package cluster

import (
	"cmp"
	"math"
	"slices"
)

// principal rotates the active points of sp onto their principal axes
// and keeps the leading axes that hold share of the variance: distances
// in the result equal those in sp but for the variance left out. It
// returns the new space and the share of the variance it holds.
func principal(sp *space, active []int, share float64) (*space, float64) {
	d := sp.d
	if d == 0 || len(active) == 0 {
		return sp, 1
	}
	mean := make([]float64, d)
	for _, i := range active {
		for t, v := range sp.point(i) {
			mean[t] += v
		}
	}
	for t := range mean {
		mean[t] /= float64(len(active))
	}
	cov := make([]float64, d*d)
	x := make([]float64, d)
	for _, i := range active {
		for t, v := range sp.point(i) {
			x[t] = v - mean[t]
		}
		for a := range d {
			xa := x[a]
			if xa == 0 {
				continue
			}
			row := cov[a*d : a*d+d]
			for b := a; b < d; b++ {
				row[b] += xa * x[b]
			}
		}
	}
	for a := range d {
		for b := a + 1; b < d; b++ {
			cov[b*d+a] = cov[a*d+b]
		}
	}
	vals, vecs := eigenSym(cov, d)
	total := 0.0
	for _, v := range vals {
		total += max(v, 0)
	}
	if total == 0 {
		return &space{n: sp.n}, 1
	}
	keep, kept := 0, 0.0
	for keep < d && kept < share*total && vals[keep] > 0 {
		kept += vals[keep]
		keep++
	}
	out := &space{n: sp.n, d: keep, x: make([]float64, sp.n*keep)}
	for i := range sp.n {
		p, q := sp.point(i), out.point(i)
		for t, v := range p {
			x[t] = v - mean[t]
		}
		for j := range keep {
			q[j] = dot(x, vecs[j])
		}
	}
	return out, kept / total
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// eigenSym returns the eigenvalues of the symmetric d×d matrix a
// (row-major; destroyed), largest first, and the eigenvector of each,
// by cyclic Jacobi rotations.
func eigenSym(a []float64, d int) ([]float64, [][]float64) {
	v := make([]float64, d*d)
	for i := range d {
		v[i*d+i] = 1
	}
	for range 60 {
		off, diag := 0.0, 0.0
		for p := range d {
			diag += a[p*d+p] * a[p*d+p]
			for q := p + 1; q < d; q++ {
				off += a[p*d+q] * a[p*d+q]
			}
		}
		if off <= 1e-30*diag || off == 0 {
			break
		}
		for p := range d {
			for q := p + 1; q < d; q++ {
				apq := a[p*d+q]
				if apq == 0 {
					continue
				}
				theta := (a[q*d+q] - a[p*d+p]) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := range d {
					akp, akq := a[k*d+p], a[k*d+q]
					a[k*d+p], a[k*d+q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := range d {
					apk, aqk := a[p*d+k], a[q*d+k]
					a[p*d+k], a[q*d+k] = c*apk-s*aqk, s*apk+c*aqk
				}
				for k := range d {
					vkp, vkq := v[k*d+p], v[k*d+q]
					v[k*d+p], v[k*d+q] = c*vkp-s*vkq, s*vkp+c*vkq
				}
			}
		}
	}
	idx := make([]int, d)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(a[y*d+y], a[x*d+x]) })
	vals := make([]float64, d)
	vecs := make([][]float64, d)
	for j, i := range idx {
		vals[j] = a[i*d+i]
		vecs[j] = make([]float64, d)
		for k := range d {
			vecs[j][k] = v[k*d+i]
		}
	}
	return vals, vecs
}

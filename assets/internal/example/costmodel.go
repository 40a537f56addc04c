package example

import (
	"math"

	"cubeview/model"
)

// parts splits the time of one cnode on one rank into the leaves of the
// metric tree; the metric values are sums of these parts, so every parent
// metric includes its children by construction.
type parts struct {
	comp         float64 // own code, no MPI
	mgmt         float64 // MPI_Init, MPI_Finalize
	barrierWait  float64
	barrierCompl float64
	barrierRest  float64 // barrier time neither waiting nor completion
	lateSender   float64
	p2pRest      float64 // point-to-point time that is not waiting
	waitNxN      float64
	collRest     float64 // collective time that is not waiting
	visits       float64
	flops        float64
}

func (p *parts) metric(m int) float64 {
	barrier := p.barrierWait + p.barrierCompl + p.barrierRest
	p2p := p.lateSender + p.p2pRest
	coll := p.waitNxN + p.collRest
	mpi := barrier + p2p + coll + p.mgmt
	switch m {
	case mTime, mExecution:
		return p.comp + mpi
	case mMPI:
		return mpi
	case mSync, mBarrier:
		return barrier
	case mBarrierWait:
		return p.barrierWait
	case mBarrierCompletion:
		return p.barrierCompl
	case mComm:
		return p2p + coll
	case mP2P:
		return p2p
	case mLateSender:
		return p.lateSender
	case mCollective:
		return coll
	case mWaitNxN:
		return p.waitNxN
	case mVisits:
		return p.visits
	case mFPOps:
		return p.flops
	}
	panic("example: unknown metric")
}

// Per-iteration costs in seconds at relative work 1 and full clock speed,
// and floating-point operations per cell and iteration.
const (
	rhsTime, rhsFlops        = 0.018, 9
	xSolveTime, xSolveFlops  = 0.034, 8
	ySolveTime, ySolveFlops  = 0.030, 8
	zSolveTime, zSolveFlops  = 0.031, 8
	residualTime, resFlops   = 0.0004, 2
	packTime                 = 0.00025 // halo packing in exchange_halo
	irecvTime, isendTime     = 2e-6, 3e-6
	faceTransferTime         = 14e-6 // per neighbour, seen in MPI_Waitall
	alltoallTime             = 0.0009
	barrierComplTime         = 30e-6
	barrierRestTime          = 15e-6
	boundaryCost             = 0.2 // extra relative cost per physical boundary face
	slowNode, slowNodeSpeed  = 2, 0.92
	jitterAmplitude          = 0.06 // ± 3 %
	initTime, mpiInitTime    = 0.08, 0.55
	finalizeTime, mpiFinTime = 0.01, 0.05
	mainTime                 = 0.004
)

// boundaryFaces returns how many sides of rank's subdomain lie on the
// physical boundary of the 4 × 4 process grid.
func boundaryFaces(rank int) int {
	x, y := rank%gridX, rank/gridX
	n := 0
	for _, b := range []bool{x == 0, x == gridX-1, y == 0, y == gridY-1} {
		if b {
			n++
		}
	}
	return n
}

// cost is the relative cost per cell of rank's subdomain.
func cost(rank int) float64 { return 1 + float64(boundaryCost*float64(boundaryFaces(rank))) }

// work is rank's relative amount of work per iteration: its cost per cell
// times its share of cells. A weighted partition evens it out.
func work(rank int, weighted bool) float64 {
	if !weighted {
		return cost(rank)
	}
	sum := 0.0
	for q := 0; q < ranks; q++ {
		sum += cost(q)
	}
	return sum / ranks
}

func speed(rank int) float64 {
	if rank/ranksPerNode == slowNode {
		return slowNodeSpeed
	}
	return 1
}

// jitter returns a deterministic factor within ± jitterAmplitude/2 for
// one (run, rank, cnode) triple.
func jitter(run string, rank, cnode int) float64 {
	h := uint64(len(run))<<40 ^ uint64(run[0])<<32 ^ uint64(rank)<<16 ^ uint64(cnode)
	// splitmix64
	h += 0x9e3779b97f4a7c15
	h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
	h = (h ^ h>>27) * 0x94d049bb133111eb
	h ^= h >> 31
	u := float64(h>>11) / (1 << 53)
	return 1 + float64(jitterAmplitude*(u-0.5))
}

// ns rounds a time to whole nanoseconds, as a timer would. Explicit
// rounding also keeps results identical on machines that fuse a*b+c.
func ns(t float64) float64 { return math.Round(t*1e9) / 1e9 }

// fillData computes every cnode's parts on every rank and stores the
// metric blocks.
func fillData(e *model.Experiment, r Run) {
	data := make([][ranks]parts, len(calls))
	var busy [ranks]float64 // loop time of each rank without waiting
	for rank := 0; rank < ranks; rank++ {
		w := work(rank, r.Weighted)
		slowdown := w / speed(rank)
		neighbours := float64(4 - boundaryFaces(rank))
		cells := cellsPerRank * w / cost(rank)
		t := func(c int, seconds float64) float64 { return ns(seconds * jitter(r.Name, rank, c)) }
		it := float64(iterations)
		barriers := float64(iterations / r.BarrierInterval)
		flops := func(perCell float64) float64 { return math.Round(it * cells * perCell * cost(rank)) }

		d := func(c int) *parts { return &data[c][rank] }
		*d(0) = parts{comp: t(0, mainTime), visits: 1}
		*d(1) = parts{comp: t(1, initTime), visits: 1}
		*d(2) = parts{mgmt: t(2, mpiInitTime), visits: 1}
		*d(3) = parts{comp: t(3, it*residualTime*slowdown), visits: it, flops: flops(resFlops)}
		*d(4) = parts{comp: t(4, it*rhsTime*slowdown), visits: it, flops: flops(rhsFlops)}
		*d(5) = parts{comp: t(5, it*packTime), visits: it}
		*d(6) = parts{p2pRest: t(6, it*neighbours*irecvTime), visits: it * neighbours}
		*d(7) = parts{p2pRest: t(7, it*neighbours*isendTime), visits: it * neighbours}
		*d(8) = parts{p2pRest: t(8, it*neighbours*faceTransferTime), visits: it}
		*d(9) = parts{comp: t(9, it*xSolveTime*slowdown), visits: it, flops: flops(xSolveFlops)}
		*d(10) = parts{comp: t(10, it*ySolveTime*slowdown), visits: it, flops: flops(ySolveFlops)}
		*d(11) = parts{collRest: t(11, it*alltoallTime), visits: it}
		*d(12) = parts{comp: t(12, it*zSolveTime*slowdown), visits: it, flops: flops(zSolveFlops)}
		*d(13) = parts{barrierCompl: t(13, barriers*barrierComplTime), barrierRest: t(13, barriers*barrierRestTime), visits: barriers}
		*d(14) = parts{comp: t(14, finalizeTime), visits: 1}
		*d(15) = parts{mgmt: t(15, mpiFinTime), visits: 1}
		for c := 3; c <= 13; c++ {
			busy[rank] += data[c][rank].metric(mTime)
		}
	}
	slowest := 0.0
	for _, b := range busy {
		slowest = math.Max(slowest, b)
	}
	// Every rank leaves the loop with the slowest one; the difference is
	// waiting, found where the ranks synchronise.
	for rank := 0; rank < ranks; rank++ {
		wait := slowest - busy[rank]
		barrierShare, p2pShare := 0.9, 0.05
		if r.BarrierInterval > 1 {
			// Without the per-iteration barrier the delay reaches the
			// neighbours of the slow node through the halo exchange and
			// everybody else in the all-to-all.
			barrierShare, p2pShare = 0.06, 0.3
			if y := rank / gridX; y == slowNode-1 || y == slowNode+1 {
				p2pShare = 0.55
			}
		}
		barrierWait := ns(wait * barrierShare)
		lateSender := ns(wait * p2pShare)
		data[13][rank].barrierWait = barrierWait
		data[8][rank].lateSender = lateSender
		data[11][rank].waitNxN = wait - barrierWait - lateSender
	}

	nl := len(e.Locations)
	for m := range e.Metrics {
		b := model.NewBlock(len(e.Cnodes), nl)
		for c := range data {
			for l := 0; l < nl; l++ {
				rank := e.System[e.Location(l).Parent].Rank
				if v := data[c][rank].metric(m); v != 0 {
					b.MutableRow(c)[l] = v
				}
			}
		}
		e.SetBlock(m, b)
	}
}

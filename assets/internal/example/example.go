package example

import (
	"fmt"
	"path"

	"cubeview/model"
)

// SourceDir is the directory, relative to the experiment files, that the
// regions' module paths start with.
const SourceDir = "example-src"

// Process layout and run length of the modelled solver.
const (
	gridX        = 4 // process grid, x
	gridY        = 4 // process grid, y
	ranks        = gridX * gridY
	ranksPerNode = 4
	iterations   = 100
	cellsPerRank = 64 * 64 * 128 // 256 × 256 × 128 cells over 16 ranks
)

// Run is one measured execution of the solver.
type Run struct {
	Name            string // "before" or "after"
	CommandLine     string
	BarrierInterval int  // MPI_Barrier every this many iterations
	Weighted        bool // partition weighted by the boundary cost model
}

// Before and After are the two runs of the example.
var (
	Before = Run{Name: "before", CommandLine: "mpirun -np 16 ./solver -b 1 100", BarrierInterval: 1}
	After  = Run{Name: "after", CommandLine: "mpirun -np 16 ./solver -b 10 -w 100", BarrierInterval: 10, Weighted: true}
)

// Metric indices, in depth-first order of the metric tree.
const (
	mTime = iota
	mExecution
	mMPI
	mSync
	mBarrier
	mBarrierWait
	mBarrierCompletion
	mComm
	mP2P
	mLateSender
	mCollective
	mWaitNxN
	mVisits
	mFPOps
	numMetrics
)

var metrics = [numMetrics]model.Metric{
	mTime:              {UniqName: "time", DispName: "Time", Unit: "sec", DataType: "DOUBLE", Parent: -1, Descr: "Total time spent on the program, including waiting"},
	mExecution:         {UniqName: "execution", DispName: "Execution", Unit: "sec", DataType: "DOUBLE", Parent: mTime, Descr: "Time spent executing the program's code and MPI"},
	mMPI:               {UniqName: "mpi", DispName: "MPI", Unit: "sec", DataType: "DOUBLE", Parent: mExecution, Descr: "Time spent in MPI calls"},
	mSync:              {UniqName: "mpi_synchronization", DispName: "Synchronization", Unit: "sec", DataType: "DOUBLE", Parent: mMPI, Descr: "Time spent in MPI calls that only synchronize processes"},
	mBarrier:           {UniqName: "mpi_barrier", DispName: "Barrier", Unit: "sec", DataType: "DOUBLE", Parent: mSync, Descr: "Time spent in MPI_Barrier"},
	mBarrierWait:       {UniqName: "mpi_barrier_wait", DispName: "Wait at Barrier", Unit: "sec", DataType: "DOUBLE", Parent: mBarrier, Descr: "Time a process waits in MPI_Barrier for the last process to arrive"},
	mBarrierCompletion: {UniqName: "mpi_barrier_completion", DispName: "Barrier Completion", Unit: "sec", DataType: "DOUBLE", Parent: mBarrier, Descr: "Time needed to leave MPI_Barrier after the last process arrived"},
	mComm:              {UniqName: "mpi_communication", DispName: "Communication", Unit: "sec", DataType: "DOUBLE", Parent: mMPI, Descr: "Time spent in MPI calls that transfer data"},
	mP2P:               {UniqName: "mpi_point2point", DispName: "P2P", Unit: "sec", DataType: "DOUBLE", Parent: mComm, Descr: "Time spent in MPI point-to-point communication"},
	mLateSender:        {UniqName: "mpi_latesender", DispName: "Late Sender", Unit: "sec", DataType: "DOUBLE", Parent: mP2P, Descr: "Time a receiver waits for a message whose send started late"},
	mCollective:        {UniqName: "mpi_collective", DispName: "Collective", Unit: "sec", DataType: "DOUBLE", Parent: mComm, Descr: "Time spent in MPI collective communication"},
	mWaitNxN:           {UniqName: "mpi_wait_nxn", DispName: "Wait at NxN", Unit: "sec", DataType: "DOUBLE", Parent: mCollective, Descr: "Time spent in an all-to-all operation waiting for the last process to enter"},
	mVisits:            {UniqName: "visits", DispName: "Visits", Unit: "occ", DataType: "UINT64", Parent: -1, Descr: "Number of visits"},
	mFPOps:             {UniqName: "papi_fp_ops", DispName: "PAPI_FP_OPS", Unit: "#", DataType: "UINT64", Parent: -1, Descr: "Floating-point operations (hardware counter)"},
}

// Region indices.
const (
	rMain = iota
	rInit
	rMPIInit
	rSolverIterate
	rComputeRHS
	rExchangeHalo
	rMPIIrecv
	rMPIIsend
	rMPIWaitall
	rXSolve
	rYSolve
	rMPIAlltoall
	rZSolve
	rMPIBarrier
	rFinalize
	rMPIFinalize
	numRegions
)

// src names a file of the example sources as recorded in the experiments.
func src(name string) string { return path.Join(SourceDir, name) }

// regions lists the code regions; begin and end are the lines of the
// function definitions in assets/example-src (a test checks them).
var regions = [numRegions]model.Region{
	rMain:          {Name: "main", Module: src("solver.c"), Begin: 111, End: 122, Paradigm: "compiler", Role: "function"},
	rInit:          {Name: "init", Module: src("solver.c"), Begin: 24, End: 51, Paradigm: "compiler", Role: "function"},
	rMPIInit:       {Name: "MPI_Init", Module: "MPI", Begin: -1, End: -1, Paradigm: "mpi", Role: "function"},
	rSolverIterate: {Name: "solver_iterate", Module: src("solver.c"), Begin: 86, End: 98, Paradigm: "compiler", Role: "function"},
	rComputeRHS:    {Name: "compute_rhs", Module: src("solver.c"), Begin: 53, End: 66, Paradigm: "compiler", Role: "function"},
	rExchangeHalo:  {Name: "exchange_halo", Module: src("halo.c"), Begin: 27, End: 44, Paradigm: "compiler", Role: "function"},
	rMPIIrecv:      {Name: "MPI_Irecv", Module: "MPI", Begin: -1, End: -1, Paradigm: "mpi", Role: "point2point"},
	rMPIIsend:      {Name: "MPI_Isend", Module: "MPI", Begin: -1, End: -1, Paradigm: "mpi", Role: "point2point"},
	rMPIWaitall:    {Name: "MPI_Waitall", Module: "MPI", Begin: -1, End: -1, Paradigm: "mpi", Role: "point2point"},
	rXSolve:        {Name: "x_solve", Module: src("xsolve.f90"), Begin: 13, End: 37, Paradigm: "compiler", Role: "function"},
	rYSolve:        {Name: "y_solve", Module: src("solver.c"), Begin: 68, End: 76, Paradigm: "compiler", Role: "function"},
	rMPIAlltoall:   {Name: "MPI_Alltoall", Module: "MPI", Begin: -1, End: -1, Paradigm: "mpi", Role: "coll all2all"},
	rZSolve:        {Name: "z_solve", Module: src("solver.c"), Begin: 78, End: 84, Paradigm: "compiler", Role: "function"},
	rMPIBarrier:    {Name: "MPI_Barrier", Module: "MPI", Begin: -1, End: -1, Paradigm: "mpi", Role: "barrier"},
	rFinalize:      {Name: "finalize", Module: src("solver.c"), Begin: 100, End: 109, Paradigm: "compiler", Role: "function"},
	rMPIFinalize:   {Name: "MPI_Finalize", Module: "MPI", Begin: -1, End: -1, Paradigm: "mpi", Role: "function"},
}

// callSite is one node of the call tree: the callee, its parent cnode and
// where the call is written.
type callSite struct {
	region int
	parent int
	file   string
	line   int
}

// calls is the call tree in depth-first order; call lines are the lines
// of the calls in assets/example-src (a test checks them).
var calls = []callSite{
	{rMain, -1, "", -1},
	{rInit, 0, src("solver.c"), 117},
	{rMPIInit, 1, src("solver.c"), 28},
	{rSolverIterate, 0, src("solver.c"), 119},
	{rComputeRHS, 3, src("solver.c"), 88},
	{rExchangeHalo, 3, src("solver.c"), 89},
	{rMPIIrecv, 5, src("halo.c"), 37},
	{rMPIIsend, 5, src("halo.c"), 39},
	{rMPIWaitall, 5, src("halo.c"), 42},
	{rXSolve, 3, src("solver.c"), 90},
	{rYSolve, 3, src("solver.c"), 91},
	{rMPIAlltoall, 3, src("solver.c"), 92},
	{rZSolve, 3, src("solver.c"), 94},
	{rMPIBarrier, 3, src("solver.c"), 96},
	{rFinalize, 0, src("solver.c"), 120},
	{rMPIFinalize, 14, src("solver.c"), 108},
}

// Build returns the experiment of run r, with all data in memory.
func Build(r Run) *model.Experiment {
	e := &model.Experiment{Source: r.Name + ".cubex", Format: "generated"}
	e.Attrs = []model.Attr{
		{Key: "Creator", Value: "cubeview example generator"},
		{Key: "Example::Run", Value: r.Name},
		{Key: "Example::CommandLine", Value: r.CommandLine},
		{Key: "Example::Note", Value: "values from a deterministic cost model of the solver, not from a measurement"},
	}
	for i, m := range metrics {
		m.ID = i
		m.Type = "EXCLUSIVE"
		m.Aggregation = model.AggregationOf(m.DataType)
		e.Metrics = append(e.Metrics, m)
	}
	for i, reg := range regions {
		reg.ID = i
		reg.MangledName = reg.Name
		e.Regions = append(e.Regions, reg)
	}
	for i, c := range calls {
		e.Cnodes = append(e.Cnodes, model.Cnode{ID: i, Region: c.region, Parent: c.parent, CallFile: c.file, CallLine: c.line})
	}
	buildSystem(e)
	e.Link()
	e.NumberLocations()
	addTopology(e)
	fillData(e, r)
	return e
}

// buildSystem adds machine > 4 nodes > 16 processes > one thread each.
func buildSystem(e *model.Experiment) {
	add := func(n model.SystemNode) int {
		n.Location = -1
		e.System = append(e.System, n)
		return len(e.System) - 1
	}
	machine := add(model.SystemNode{ID: 0, Kind: model.TreeNode, Class: "machine", Name: "Linux cluster", Parent: -1})
	for n := 0; n < ranks/ranksPerNode; n++ {
		node := add(model.SystemNode{ID: 1 + n, Kind: model.TreeNode, Class: "node", Name: fmt.Sprintf("node%02d", n+1), Parent: machine})
		for p := n * ranksPerNode; p < (n+1)*ranksPerNode; p++ {
			g := add(model.SystemNode{ID: p, Kind: model.Group, Class: "process", Name: fmt.Sprintf("MPI Rank %d", p), Rank: p, Parent: node})
			add(model.SystemNode{ID: p, Kind: model.Leaf, Class: "thread", Name: "Master thread", Rank: 0, Parent: g})
		}
	}
}

// addTopology records the 4 × 4 process grid of the solver.
func addTopology(e *model.Experiment) {
	t := model.Cart{
		Name: "MPI Cartesian topology",
		Dims: []model.CartDim{{Name: "x", Size: gridX}, {Name: "y", Size: gridY}},
	}
	for l, s := range e.Locations {
		t.Coords = append(t.Coords, model.CartCoord{Node: s, Coord: []int{l % gridX, l / gridX}})
	}
	e.Topologies = []model.Cart{t}
}

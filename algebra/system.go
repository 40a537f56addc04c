package algebra

import (
	"cmp"
	"fmt"
	"slices"

	"cubeview/model"
)

// rankKey identifies a process by rank, or a thread by rank within its
// process; occ numbers entities of equal rank within one operand.
type rankKey struct{ rank, occ int }

func (k rankKey) less(o rankKey) int {
	if c := cmp.Compare(k.rank, o.rank); c != 0 {
		return c
	}
	return cmp.Compare(k.occ, o.occ)
}

// opProcess is a location group of an operand with its locations.
type opProcess struct {
	node      int // system index of the group
	key       rankKey
	placement int // system index of the group's parent, -1 for a root
	threads   []int
	tkeys     []rankKey
}

// processesOf lists the location groups of e in depth-first order.
func processesOf(e *model.Experiment, name string) ([]opProcess, error) {
	var procs []opProcess
	index := make([]int, len(e.System)) // process of each system node, -1 outside any
	occ := map[int]int{}
	for _, s := range e.SystemOrder() {
		n := &e.System[s]
		index[s] = -1
		if n.Parent >= 0 {
			index[s] = index[n.Parent]
		}
		switch n.Kind {
		case model.Group:
			index[s] = len(procs)
			procs = append(procs, opProcess{node: s, key: rankKey{n.Rank, occ[n.Rank]}, placement: n.Parent})
			occ[n.Rank]++
		case model.Leaf:
			g := index[s]
			if g < 0 {
				return nil, fmt.Errorf("%s: location id %d (%q) is not inside a location group", name, n.ID, n.Name)
			}
			p := &procs[g]
			k := rankKey{n.Rank, 0}
			for _, t := range p.tkeys {
				if t.rank == n.Rank {
					k.occ++
				}
			}
			p.threads = append(p.threads, s)
			p.tkeys = append(p.tkeys, k)
		}
	}
	return procs, nil
}

type resThread struct {
	key     rankKey
	src     *model.SystemNode
	present model.Mask
}

type resProcess struct {
	key     rankKey
	src     *model.SystemNode
	present model.Mask
	threads []resThread
	tindex  map[rankKey]int
	built   bool
	node    int // result system index
	tnodes  []int
}

func (ig *Integration) integrateSystem() error {
	ops := ig.Operands
	procs := make([][]opProcess, len(ops))
	all := map[rankKey]bool{}
	for i, e := range ops {
		p, err := processesOf(e, operandName(ops, i))
		if err != nil {
			return err
		}
		procs[i] = p
		for _, q := range p {
			all[q.key] = true
		}
	}
	ig.SystemOutcome = ig.chooseDonor(procs, len(all))
	donor := ig.SystemOutcome.Donor
	if donor >= 0 {
		ig.SystemOutcome.DonorName = ops[donor].Source
	}

	// Union of processes and threads; definitions from the donor, then
	// from the first operand that has the entity.
	order := make([]int, 0, len(ops))
	if donor >= 0 {
		order = append(order, donor)
	}
	for i := range ops {
		if i != donor {
			order = append(order, i)
		}
	}
	union := map[rankKey]*resProcess{}
	var keys []rankKey
	for _, i := range order {
		e := ops[i]
		for _, p := range procs[i] {
			rp := union[p.key]
			if rp == nil {
				rp = &resProcess{key: p.key, src: &e.System[p.node], tindex: map[rankKey]int{}}
				union[p.key] = rp
				keys = append(keys, p.key)
			}
			rp.present |= bit(i)
			for j, tk := range p.tkeys {
				t, ok := rp.tindex[tk]
				if !ok {
					t = len(rp.threads)
					rp.tindex[tk] = t
					rp.threads = append(rp.threads, resThread{key: tk, src: &e.System[p.threads[j]]})
				}
				rp.threads[t].present |= bit(i)
			}
		}
	}

	res := ig.Result
	add := func(n model.SystemNode) int {
		n.Location = -1
		n.Children = nil
		res.System = append(res.System, n)
		return len(res.System) - 1
	}
	addProcess := func(rp *resProcess, parent int) {
		g := *rp.src
		g.Kind, g.Rank, g.Parent, g.Present = model.Group, rp.key.rank, parent, rp.present
		g.Attrs = slices.Clone(g.Attrs)
		rp.node = add(g)
		rp.built = true
		rp.tnodes = make([]int, len(rp.threads))
		for j, t := range rp.threads {
			l := *t.src
			l.Kind, l.Rank, l.Parent, l.Present = model.Leaf, t.key.rank, rp.node, t.present
			l.Attrs = slices.Clone(l.Attrs)
			rp.tnodes[j] = add(l)
		}
	}
	ig.System = make([][]int, len(ops))
	for i, e := range ops {
		ig.System[i] = newMap(len(e.System))
	}
	if donor >= 0 {
		d := ops[donor]
		dmap := ig.System[donor]
		dprocs := map[int]rankKey{}
		for _, p := range procs[donor] {
			dprocs[p.node] = p.key
		}
		for _, s := range d.SystemOrder() {
			n := &d.System[s]
			parent := -1
			if n.Parent >= 0 {
				parent = dmap[n.Parent]
			}
			switch n.Kind {
			case model.TreeNode:
				c := *n
				c.Parent, c.Present = parent, bit(donor)
				c.Attrs = slices.Clone(c.Attrs)
				dmap[s] = add(c)
			case model.Group:
				rp := union[dprocs[s]]
				addProcess(rp, parent)
				dmap[s] = rp.node
			}
		}
		var extra []rankKey
		for _, k := range keys {
			if !union[k].built {
				extra = append(extra, k)
			}
		}
		if len(extra) > 0 {
			slices.SortFunc(extra, rankKey.less)
			m := add(model.SystemNode{Kind: model.TreeNode, Class: "machine", Name: "Other processes", Parent: -1})
			nd := add(model.SystemNode{Kind: model.TreeNode, Class: "node", Name: "Other processes", Parent: m})
			for _, k := range extra {
				addProcess(union[k], nd)
			}
		}
	} else {
		slices.SortFunc(keys, rankKey.less)
		m := add(model.SystemNode{Kind: model.TreeNode, Class: "machine", Name: "Virtual machine", Parent: -1})
		nd := add(model.SystemNode{Kind: model.TreeNode, Class: "node", Name: "Virtual node", Parent: m})
		for _, k := range keys {
			addProcess(union[k], nd)
		}
	}

	// A structural node was present in every operand that has a process below it.
	for s := len(res.System) - 1; s >= 0; s-- {
		if p := res.System[s].Parent; p >= 0 && res.System[p].Kind == model.TreeNode {
			res.System[p].Present |= res.System[s].Present
		}
	}
	res.Link()
	ids := map[model.SystemKind]int{}
	for _, s := range res.SystemOrder() {
		n := &res.System[s]
		n.ID = ids[n.Kind]
		ids[n.Kind]++
	}

	for i := range ops {
		for _, p := range procs[i] {
			rp := union[p.key]
			ig.System[i][p.node] = rp.node
			for j, tk := range p.tkeys {
				ig.System[i][p.threads[j]] = rp.tnodes[rp.tindex[tk]]
			}
		}
	}
	return nil
}

// chooseDonor decides whether the machine/node hierarchy is copied and
// from which operand; nprocs is the number of processes of the result.
func (ig *Integration) chooseDonor(procs [][]opProcess, nprocs int) SystemOutcome {
	if ig.Options.System == SystemCollapse {
		return SystemOutcome{Donor: -1, Reason: "as requested"}
	}
	why := ""
	for d := range ig.Operands {
		if len(procs[d]) < nprocs {
			continue
		}
		if problem := ig.incompatibility(procs, d); problem != "" {
			if why == "" {
				why = problem
			}
			continue
		}
		if len(ig.Operands) == 1 {
			return SystemOutcome{Donor: d, Reason: "the only operand"}
		}
		return SystemOutcome{Donor: d, Reason: "it holds every process, and processes that share a node in any operand share one in it"}
	}
	if why == "" {
		why = fmt.Sprintf("no operand holds all %d processes", nprocs)
	}
	if ig.Options.System == SystemCopy {
		best := 0
		for d := range ig.Operands {
			if len(procs[d]) > len(procs[best]) {
				best = d
			}
		}
		return SystemOutcome{Donor: best, Reason: "as requested, although the partitionings are incompatible (" + why + ")"}
	}
	return SystemOutcome{Donor: -1, Reason: "the process-to-node partitionings are incompatible: " + why}
}

// incompatibility returns why operand d's hierarchy cannot hold the others'
// processes, or "" when it can: two processes that share a parent node in
// an operand must share a parent node in d.
func (ig *Integration) incompatibility(procs [][]opProcess, d int) string {
	home := map[rankKey]int{}
	for _, p := range procs[d] {
		home[p.key] = p.placement
	}
	for o := range ig.Operands {
		if o == d {
			continue
		}
		first := map[int]opProcess{} // operand o's parent node → its first process
		for _, p := range procs[o] {
			f, seen := first[p.placement]
			if !seen {
				first[p.placement] = p
				continue
			}
			if home[p.key] != home[f.key] {
				return fmt.Sprintf("the processes of rank %d and %d share a node in %s but not in %s",
					f.key.rank, p.key.rank, operandName(ig.Operands, o), operandName(ig.Operands, d))
			}
		}
	}
	return ""
}

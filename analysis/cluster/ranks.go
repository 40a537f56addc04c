package cluster

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cubeview/model"
)

// ranks knows each location's process and thread rank, when these name
// the locations unambiguously.
type ranks struct {
	ok      bool
	procs   []int         // distinct process ranks, ascending
	threads map[int][]int // a process's thread ranks, ascending
	single  bool          // every process has one thread
	proc    []int         // per location
	thread  []int
}

func ranksOf(e *model.Experiment) ranks {
	n := e.NumLocations()
	r := ranks{ok: true, threads: map[int][]int{}, proc: make([]int, n), thread: make([]int, n)}
	groupOf := map[int]int{} // process rank → its system node
	for l := range n {
		s := e.Location(l)
		p := s.Parent
		if p < 0 || e.System[p].Kind != model.Group {
			return ranks{}
		}
		pr := e.System[p].Rank
		if g, seen := groupOf[pr]; seen && g != p {
			return ranks{} // two processes of one rank
		}
		groupOf[pr] = p
		if slices.Contains(r.threads[pr], s.Rank) {
			return ranks{} // two threads of one rank in a process
		}
		r.threads[pr] = append(r.threads[pr], s.Rank)
		r.proc[l], r.thread[l] = pr, s.Rank
	}
	r.single = true
	for p, ts := range r.threads {
		slices.Sort(ts)
		r.procs = append(r.procs, p)
		r.single = r.single && len(ts) == 1
	}
	slices.Sort(r.procs)
	return r
}

// Name names location l by its ranks: "rank 3", "rank 3.1" (rank 3,
// thread 1) or, in a single process, "thread 1"; by its process's and
// its own name when ranks do not tell locations apart.
func Name(e *model.Experiment, l int) string {
	r := ranksOf(e)
	return r.name(e, l)
}

func (r *ranks) name(e *model.Experiment, l int) string {
	switch {
	case !r.ok:
		s := e.Location(l)
		if s.Parent >= 0 {
			return e.System[s.Parent].Name + "/" + s.Name
		}
		return s.Name
	case r.single:
		return "rank " + strconv.Itoa(r.proc[l])
	case len(r.procs) == 1:
		return "thread " + strconv.Itoa(r.thread[l])
	}
	return fmt.Sprintf("rank %d.%d", r.proc[l], r.thread[l])
}

// Members names a set of locations compactly by rank ranges: "ranks
// 0-511, 1024-1535" for whole processes; "R.T" for threads T of ranks
// R when a process is only partly included, e.g. "ranks 0-127.0,
// 128.1-3" (thread 0 of ranks 0 to 127 and threads 1 to 3 of rank 128),
// "{…}" around several thread ranges; "threads 0-7" in a single process.
// Without unambiguous ranks the locations are listed by name, at most
// eight.
func Members(e *model.Experiment, locations []int) string {
	r := ranksOf(e)
	if !r.ok {
		names := make([]string, 0, min(len(locations), 8))
		for i, l := range locations {
			if i == 8 {
				names = append(names, fmt.Sprintf("… %d more", len(locations)-8))
				break
			}
			names = append(names, r.name(e, l))
		}
		return strings.Join(names, ", ")
	}
	if len(r.procs) == 1 && !r.single {
		ts := make([]int, len(locations))
		for i, l := range locations {
			ts[i] = r.thread[l]
		}
		slices.Sort(ts)
		word := "threads "
		if len(ts) == 1 {
			word = "thread "
		}
		return word + intRanges(ts, ", ")
	}
	in := map[int][]int{}
	for _, l := range locations {
		in[r.proc[l]] = append(in[r.proc[l]], r.thread[l])
	}
	sig := func(p int) string {
		ts := in[p]
		if len(ts) == 0 {
			return ""
		}
		slices.Sort(ts)
		if slices.Equal(ts, r.threads[p]) {
			return "*"
		}
		if s := intRanges(ts, ","); !strings.Contains(s, ",") {
			return s
		}
		return "{" + intRanges(ts, ",") + "}"
	}
	var parts []string
	procs := 0
	for i := 0; i < len(r.procs); {
		s := sig(r.procs[i])
		j := i
		for j+1 < len(r.procs) && sig(r.procs[j+1]) == s {
			j++
		}
		if s != "" {
			procs += j - i + 1
			part := strconv.Itoa(r.procs[i])
			if j > i {
				part += "-" + strconv.Itoa(r.procs[j])
			}
			if s != "*" {
				part += "." + s
			}
			parts = append(parts, part)
		}
		i = j + 1
	}
	if procs == 1 {
		return "rank " + parts[0]
	}
	return "ranks " + strings.Join(parts, ", ")
}

// intRanges writes ascending integers as ranges: "0-3, 5, 7-9".
func intRanges(v []int, sep string) string {
	var b strings.Builder
	for i := 0; i < len(v); {
		j := i
		for j+1 < len(v) && v[j+1] == v[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(sep)
		}
		b.WriteString(strconv.Itoa(v[i]))
		if j > i {
			b.WriteString("-" + strconv.Itoa(v[j]))
		}
		i = j + 1
	}
	return b.String()
}

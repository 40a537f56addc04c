package view

import (
	"runtime"
	"sync"

	"cubeview/model"
)

// BlockRef names one metric's data of one experiment.
type BlockRef struct {
	Exp    *model.Experiment
	Metric int
	// Rows: the rows themselves are needed (per-location values of a
	// selection that is not the whole call forest), not only the
	// metric's aggregates.
	Rows bool
}

// Missing returns the metric data the next Update needs that are not
// ready yet, so that a window can load them in the background first:
// for most metrics only their aggregates (one pass over the file), for
// the selected one its rows when the call selection needs them.
func (vs *Values) Missing() []BlockRef { return vs.missing(true) }

func (vs *Values) missing(allMetrics bool) []BlockRef {
	v := vs.v
	var out []BlockRef
	seen := map[BlockRef]bool{}
	// A cluster selected as a whole (Clusters.Select) sums its
	// members' rows: per-cnode summaries of all locations do not do.
	cluster := v.clusters.subset != nil
	rows := vs.selectionNeedsRows() || cluster
	add := func(x *model.Experiment, m int) {
		for _, m := range storedOperands(x, m) {
			r := BlockRef{Exp: x, Metric: m}
			if seen[r] || x.Loaded(m) || x.Summarized(m) {
				continue
			}
			seen[r] = true
			out = append(out, r)
		}
	}
	addRows := func(x *model.Experiment, m int) {
		if !rows {
			add(x, m)
			return
		}
		for _, m := range storedOperands(x, m) {
			r := BlockRef{Exp: x, Metric: m, Rows: true}
			if seen[r] || x.Loaded(m) {
				continue
			}
			seen[r] = true
			out = append(out, r)
		}
	}
	ext := vs.usesExternal()
	for _, m := range vs.visibleMetrics() {
		if !allMetrics {
			break
		}
		if cluster {
			addRows(v.exp, m)
		} else {
			add(v.exp, m)
		}
		if ext && v.panes[MetricPane].mode == ExternalPercent {
			add(vs.external, vs.external.MetricByName(v.exp.Metrics[m].UniqName))
		}
	}
	if ms, ok := metricSel(vs.v); ok {
		addRows(v.exp, ms.Metric)
		if !ms.Inclusive {
			for _, ch := range v.exp.Metrics[ms.Metric].Children {
				addRows(v.exp, ch)
			}
		}
		if ext {
			add(vs.external, vs.external.MetricByName(v.exp.Metrics[ms.Metric].UniqName))
		}
	}
	for _, m := range v.cols.metrics {
		add(v.exp, m)
		if ext && v.panes[CallPane].mode == ExternalPercent {
			add(vs.external, vs.external.MetricByName(v.exp.Metrics[m].UniqName))
		}
	}
	return out
}

// Prefetch returns the selected metric's data (with its child metrics when
// it is expanded) whose rows are not in memory yet: a window reads them in
// the background once values are shown, so that a later call selection
// needs no reading (a metric above the memory budget gets a block that
// reads its rows on demand, which costs nothing ahead).
func (vs *Values) Prefetch() []BlockRef {
	e := vs.v.exp
	ms, ok := metricSel(vs.v)
	if !ok {
		return nil
	}
	ms2 := []int{ms.Metric}
	if !ms.Inclusive {
		ms2 = append(ms2, e.Metrics[ms.Metric].Children...)
	}
	var out []BlockRef
	for _, m := range ms2 {
		if e.Metrics[m].Unavailable == "" && !e.Loaded(m) {
			out = append(out, BlockRef{Exp: e, Metric: m, Rows: true})
		}
	}
	return out
}

// selectionNeedsRows reports whether the system pane's values for the
// current call selection need the selected metric's rows: every selection
// but the whole call forest (or a collapsed single root) does.
func (vs *Values) selectionNeedsRows() bool {
	v := vs.v
	cs := v.panes[CallPane].selected
	switch cs.Kind {
	case CnodeNode:
		whole := len(v.exp.CnodeRoots) == 1 && v.exp.Cnodes[cs.Index].Parent < 0 && !v.expandedBranch(CallPane, cs)
		return !whole
	case RegionNode, SubroutinesNode:
		return true
	}
	return false
}

// MissingUnder returns the metric data below metric m (inclusive) not yet
// in memory; expanding the hottest path of the metric pane needs them.
func (vs *Values) missingUnder(m int) []BlockRef {
	e := vs.v.exp
	var out []BlockRef
	for _, i := range model.DepthFirst([]int{m}, func(i int) []int { return e.Metrics[i].Children }) {
		for _, s := range storedOperands(e, i) {
			if !e.Loaded(s) && !e.Summarized(s) {
				out = append(out, BlockRef{Exp: e, Metric: s})
			}
		}
	}
	return out
}

// Read reads the data refs name: one pass over the file per metric, as
// many at once as there are processors. Errors surface when a View uses
// the data. It takes long: call it off the UI goroutine.
func Read(refs []BlockRef) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, r := range refs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if r.Rows {
				_, _ = r.Exp.Block(r.Metric)
			}
			_ = r.Exp.Summarize(r.Metric)
		}()
	}
	wg.Wait()
}

// ReadRows reads the rows of the metrics refs name, ahead of their use
// (Prefetch); errors surface when a View uses the data. Call it off the
// UI goroutine.
func ReadRows(refs []BlockRef) {
	for _, r := range refs {
		_, _ = r.Exp.Block(r.Metric)
	}
}

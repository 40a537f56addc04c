package cli

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"cubeview/analysis"
	"cubeview/analysis/cluster"
	"cubeview/model"
	"cubeview/numfmt"
)

func init() {
	register(&Command{
		Name:    "cluster",
		Summary: "groups of locations that behave alike, and the odd ones out (k-means over call paths)",
		Usage: `usage: cubeview cluster FILE --metric UNIQ [-k N | -k auto] [--max-k N] [--top N] [--csv]

Groups the locations (threads, or processes) whose values of the metric
per call path are alike, and lists the outliers: locations far from every
group. Works on a difference experiment too ("cubeview diff A B -o d.cubex"):
the ranks that changed alike.

Each location is the vector of its own (call-tree exclusive) values, one
per call path, divided by the average location's total: a distance of 0.1
is 10 % of a typical location's whole. K-means (k-means++ seeds, fixed
seed) groups the vectors; the result does not depend on the order of the
locations in the file. With -k auto (the default) k = 2…8 (--max-k) are
tried and the one of the highest mean silhouette wins, provided its groups are separated
(centres at least 2 spreads apart) and hold two locations or more; else all
locations are one group. An outlier is farther than median + 5 robust
standard deviations (and 5 %) of the locations' distances to their own
centroid from every centroid, its own computed without it; outliers are
set aside and the rest grouped again.

Members are rank ranges: "ranks 0-511, 1024-1535" are whole processes,
"ranks 0-127.0" thread 0 of ranks 0 to 127, "rank 4.1-3" threads 1 to 3 of
rank 4 ("{…}" around several thread ranges); "threads 0-7" in a single
process.

  --metric UNIQ  the metric (stored or derived); its inclusive value along
                 the metric tree, as a collapsed metric shows it
  -k N|auto      the number of groups, or auto (default)
  --max-k N      with -k auto, the largest k tried (default 8, at most the
                 number of locations less one); when the answer is the
                 largest k tried, the output says so, as more groups may fit
  --top N        call paths shown per group: its centroid's largest, and
                 where it differs most from the mean of the other groups'
                 members (default 5)
  --csv          print CSV instead: location,rank,thread,cluster with
                 cluster 1, 2, … or "outlier"`,
		Run: runCluster,
	})
}

func runCluster(env Env, args []string) error {
	fs := newFlagSet("cluster")
	metric := fs.String("metric", "", "")
	kFlag := fs.String("k", "auto", "")
	maxK := fs.Int("max-k", cluster.DefaultMaxK, "")
	top := fs.Int("top", 5, "")
	asCSV := fs.Bool("csv", false, "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one FILE, got %d arguments", len(pos))
	}
	if *metric == "" {
		return usagef("--metric is required")
	}
	k := 0
	if *kFlag != "auto" {
		if k, err = strconv.Atoi(*kFlag); err != nil || k < 1 {
			return usagef("-k %s: want a number ≥ 1 or auto", *kFlag)
		}
	}
	if *maxK < 2 {
		return usagef("--max-k %d: want N ≥ 2", *maxK)
	}
	if k > 0 && setFlag(fs, "max-k") {
		return usagef("--max-k goes with -k auto, not with -k %d", k)
	}
	if *top < 1 {
		return usagef("--top %d: want N ≥ 1", *top)
	}
	path := pos[0]
	e, err := openExperiment(path)
	if err != nil {
		return err
	}
	m, err := metricIndex(e, path, *metric)
	if err != nil {
		return err
	}
	r, err := cluster.Locations(e, m, cluster.Options{K: k, MaxK: *maxK})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if *asCSV {
		return writeClusterCSV(env.Stdout, e, r)
	}
	return writeClusterText(env.Stdout, e, r, *top)
}

func writeClusterCSV(w io.Writer, e *model.Experiment, r *cluster.Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"location", "rank", "thread", "cluster"})
	for l := range e.NumLocations() {
		s := e.Location(l)
		rank := ""
		if s.Parent >= 0 {
			rank = strconv.Itoa(e.System[s.Parent].Rank)
		}
		which := "outlier"
		if j := r.Of[l]; j >= 0 {
			which = strconv.Itoa(j + 1)
		}
		cw.Write([]string{analysis.LocationName(e, l), rank, strconv.Itoa(s.Rank), which})
	}
	cw.Flush()
	return cw.Error()
}

func writeClusterText(w io.Writer, e *model.Experiment, r *cluster.Result, top int) error {
	bw := bufio.NewWriter(w)
	met := &e.Metrics[r.Metric]
	unit := ""
	if u := met.Unit; u != "" && u != "#" {
		unit = " " + u
	}
	val := func(v float64) string { return fmtG(v) + unit }
	signed := func(v float64) string {
		if v > 0 {
			return "+" + val(v)
		}
		return val(v)
	}
	names := analysis.NewPathNames(e)
	groups := 0
	for _, s := range e.System {
		if s.Kind == model.Group {
			groups++
		}
	}
	fmt.Fprintf(bw, "%s [%s]%s, call-tree exclusive, %d locations in %d process%s\n",
		orNone(met.DispName), met.UniqName, unit, e.NumLocations(), groups, map[bool]string{true: "", false: "es"}[groups == 1])
	outl := fmt.Sprintf("%d outlier%s", len(r.Outliers), plural(len(r.Outliers)))
	if r.Auto {
		var sc []string
		for _, s := range r.Scores {
			mark := ""
			if !s.Separated {
				mark = " (not separated)"
			}
			sc = append(sc, fmt.Sprintf("k=%d %.3f%s", s.K, s.Silhouette, mark))
		}
		how := "by silhouette"
		if len(r.Clusters) == 1 {
			how = "no separated groups of a silhouette ≥ 0.25"
		}
		fmt.Fprintf(bw, "%d cluster%s (%s), %s\n", len(r.Clusters), plural(len(r.Clusters)), how, outl)
		if len(sc) > 0 {
			fmt.Fprintf(bw, "silhouette: %s\n", strings.Join(sc, ", "))
		}
		if n := len(r.Scores); n > 0 && len(r.Clusters) == r.Scores[n-1].K {
			fmt.Fprintf(bw, "k = %d is the largest k tried: more groups may fit (--max-k)\n", len(r.Clusters))
		}
	} else {
		fmt.Fprintf(bw, "%d cluster%s (k given), %s", len(r.Clusters), plural(len(r.Clusters)), outl)
		if len(r.Clusters) > 1 {
			fmt.Fprintf(bw, ", silhouette %.3f", r.Silhouette)
		}
		fmt.Fprintln(bw)
	}
	fmt.Fprintf(bw, "distances over %d of %d call paths, %d principal axes holding %s %% of their variance; unit: the average location's total, %s\n",
		r.Used, r.Paths, r.Components, numfmt.Percent(r.VarianceKept, 1), val(r.Scale))
	for j, cl := range r.Clusters {
		total := 0.0
		for _, v := range cl.Centroid {
			total += v
		}
		fmt.Fprintf(bw, "\ncluster %d: %d location%s, %s\n", j+1, len(cl.Members), plural(len(cl.Members)), cluster.Members(e, cl.Members))
		fmt.Fprintf(bw, "  mean per location %s, radius %.3f\n", val(total), cl.Radius)
		fmt.Fprintln(bw, "  top call paths of the centroid:")
		var rows [][]string
		for _, p := range r.Top(j, top) {
			rows = append(rows, []string{"   ", val(p.Value), numfmt.Percent(p.Value, total) + " %", names.CallPath(p.Cnode)})
		}
		writeTable(bw, rows, 3)
		if d := r.Differences(j, top); len(d) > 0 {
			fmt.Fprintln(bw, "  differs from the other clusters' mean:")
			rows = rows[:0]
			for _, p := range d {
				rows = append(rows, []string{"   ", signed(p.Diff()), fmtG(p.Value), "vs", fmtG(p.Other), names.CallPath(p.Cnode)})
			}
			writeTable(bw, rows, 5)
		}
	}
	if len(r.Outliers) > 0 {
		fmt.Fprintln(bw, "\noutliers (far from every centroid):")
		for o, out := range r.Outliers {
			fmt.Fprintf(bw, "  %s: distance %.3f from cluster %d\n", cluster.Name(e, out.Location), out.Distance, out.Nearest+1)
			var rows [][]string
			for _, p := range r.OutlierDifferences(o, min(top, 3)) {
				rows = append(rows, []string{"   ", signed(p.Diff()), fmtG(p.Value), "vs", fmtG(p.Other), names.CallPath(p.Cnode)})
			}
			writeTable(bw, rows, 5)
		}
	}
	return bw.Flush()
}

package mpip

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"cubeview/format/importer"
	"cubeview/model"
)

// frame is one level of a call site's stack: level 0 calls MPI.
type frame struct {
	level    int
	file     string // source file, empty when only an address is known
	address  string // the File/Address column when it is an address
	line     int    // -1 when unknown
	function string
}

// site is one call site: an MPI operation reached through a stack.
type site struct {
	id     int
	call   string // MPI operation without the MPI_ prefix
	frames []frame
	line   int
}

// stat is one row of a callsite statistics section.
type stat struct {
	call                       string
	site                       int
	rank                       int // -1 for the aggregate row "*"
	count, max, mean, min, sum float64
	time                       float64 // the "with time" variants' Time column
	mpiPercent                 float64 // the time statistics' MPI% column
	hasTime, hasSum            bool
	line                       int
}

// statKind tells the callsite statistics sections apart.
type statKind int

const (
	statTime statKind = iota
	statSent
	statIO
	numStatKinds
)

var statTitles = [numStatKinds]string{"Callsite Time statistics", "Callsite Message Sent statistics", "Callsite I/O statistics"}

// taskTime is a row of the MPI Time section.
type taskTime struct {
	app, mpi float64 // seconds
	line     int
}

type report struct {
	header   []model.Attr
	hosts    map[int]string
	tasks    map[int]taskTime
	total    *taskTime // the "*" row
	sites    map[int]*site
	siteList []int
	nSites   int
	stats    [numStatKinds][]stat
	declared [numStatKinds]int // the count in the section title
	present  [numStatKinds]bool
	// aggregated counts the rows of the "Aggregate Sent Message Size" and
	// "Aggregate I/O Size" tables, which name call sites whose statistics
	// sections must follow.
	aggregated [numStatKinds]int
	ended      bool // the "End of Report" marker was read
}

// section is the part of a title line "@--- Title ---…" between the dashes.
func section(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "@---")
	if !ok {
		return "", false
	}
	return strings.TrimSpace(strings.TrimRight(strings.TrimSpace(rest), "-")), true
}

func parse(text, name string) (*report, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	rep := &report{hosts: map[int]string{}, tasks: map[int]taskTime{}, sites: map[int]*site{}}
	at := func(i int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, i+1, fmt.Sprintf(format, args...))
	}
	first := -1
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			first = i
			break
		}
	}
	if first < 0 || strings.TrimSpace(lines[first]) != "@ mpiP" {
		return nil, fmt.Errorf("%s: not an mpiP report (it must begin with \"@ mpiP\")", name)
	}
	cur := ""
	headerSeen := false
	for i := first + 1; i < len(lines); i++ {
		raw := strings.TrimRight(lines[i], " \t")
		trim := strings.TrimSpace(raw)
		if trim == "" || strings.Trim(trim, "-") == "" {
			continue
		}
		if title, ok := section(trim); ok {
			cur = title
			headerSeen = false
			if err := rep.openSection(title, i, at); err != nil {
				return nil, err
			}
			continue
		}
		if strings.HasPrefix(trim, "@") {
			if cur != "" {
				return nil, at(i, "unexpected header line %s inside section %s", importer.Quote(trim), importer.Quote(cur))
			}
			key, value, ok := strings.Cut(strings.TrimSpace(trim[1:]), ":")
			if !ok {
				continue
			}
			key, value = strings.TrimSpace(key), strings.TrimSpace(value)
			if key == "MPI Task Assignment" {
				f := strings.Fields(value)
				if len(f) < 1 {
					return nil, at(i, "MPI Task Assignment without a rank")
				}
				rank, err := strconv.Atoi(f[0])
				if err != nil || rank < 0 || rank > 1<<24 {
					return nil, at(i, "MPI Task Assignment: bad rank %s", importer.Quote(f[0]))
				}
				rep.hosts[rank] = strings.Join(f[1:], " ")
				continue
			}
			rep.header = append(rep.header, model.Attr{Key: "mpiP " + key, Value: value})
			continue
		}
		// A table row or its column header.
		if !headerSeen {
			headerSeen = true
			if isColumnHeader(cur, trim) {
				continue
			}
		}
		var err error
		switch kind := statKindOf(cur); {
		case cur == "MPI Time (seconds)":
			err = rep.taskRow(trim, i)
		case strings.HasPrefix(cur, "Callsites:"):
			err = rep.siteRow(raw, i)
		case kind >= 0:
			err = rep.statRow(kind, cur, trim, i)
		case strings.HasPrefix(cur, "Aggregate Sent Message Size"):
			rep.aggregated[statSent]++
		case strings.HasPrefix(cur, "Aggregate I/O Size"):
			rep.aggregated[statIO]++
		}
		if err != nil {
			return nil, at(i, "%s: %v", clip(cur), err)
		}
	}
	if len(rep.tasks) == 0 {
		return nil, fmt.Errorf("%s: no \"MPI Time (seconds)\" section with the tasks' times (truncated?)", name)
	}
	return rep, nil
}

func (rep *report) openSection(title string, i int, at func(int, string, ...any) error) error {
	if title == "End of Report" {
		rep.ended = true
		return nil
	}
	if n, ok := strings.CutPrefix(title, "Callsites:"); ok {
		v, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil || v < 0 {
			return at(i, "bad number of call sites in %s", importer.Quote(title))
		}
		rep.nSites = v
		return nil
	}
	if kind := statKindOf(title); kind >= 0 {
		rep.present[kind] = true
		if _, n, ok := strings.Cut(title, "):"); ok {
			v, err := strconv.Atoi(strings.TrimSpace(n))
			if err != nil || v < 0 {
				return at(i, "bad row count in %s", importer.Quote(title))
			}
			rep.declared[kind] = v
		}
	}
	return nil
}

// statKindOf recognises the callsite statistics sections, also the 2.x
// title "Callsite statistics (all, milliseconds)"; -1 for others.
func statKindOf(title string) statKind {
	if strings.HasPrefix(title, "Callsite statistics") {
		return statTime
	}
	for k, t := range statTitles {
		if strings.HasPrefix(title, t) {
			return statKind(k)
		}
	}
	return -1
}

func isColumnHeader(sec, line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	switch {
	case sec == "MPI Time (seconds)":
		return f[0] == "Task"
	case strings.HasPrefix(sec, "Callsites:"):
		return f[0] == "ID"
	case strings.HasPrefix(sec, "Aggregate"):
		return f[0] == "Call"
	case statKindOf(sec) >= 0:
		return f[0] == "Name"
	}
	return false
}

func (rep *report) taskRow(line string, i int) error {
	f := strings.Fields(line)
	if len(f) < 3 {
		return fmt.Errorf("want Task AppTime MPITime MPI%%, found %s", importer.Quote(line))
	}
	app, err := number(f[1], "AppTime")
	if err != nil {
		return err
	}
	mpi, err := number(f[2], "MPITime")
	if err != nil {
		return err
	}
	if f[0] == "*" {
		rep.total = &taskTime{app, mpi, i + 1}
		return nil
	}
	rank, err := strconv.Atoi(f[0])
	if err != nil || rank < 0 || rank > 1<<24 {
		return fmt.Errorf("bad task %s", importer.Quote(f[0]))
	}
	if _, dup := rep.tasks[rank]; dup {
		return fmt.Errorf("task %d listed twice", rank)
	}
	rep.tasks[rank] = taskTime{app, mpi, i + 1}
	return nil
}

// siteRow reads " ID Lev File/Address Line Parent_Funct [MPI_Call]".
func (rep *report) siteRow(line string, i int) error {
	f := strings.Fields(line)
	if len(f) < 4 {
		return fmt.Errorf("want ID Lev File/Address Line Parent_Funct MPI_Call, found %s", importer.Quote(line))
	}
	id, err1 := strconv.Atoi(f[0])
	lev, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || id < 0 || lev < 0 || lev > 1024 {
		return fmt.Errorf("bad call site id or level in %s", importer.Quote(line))
	}
	fr := frame{level: lev, line: -1}
	loc := f[2]
	rest := f[3:]
	if n, err := strconv.Atoi(rest[0]); err == nil {
		fr.line, rest = n, rest[1:]
	}
	if strings.HasPrefix(loc, "0x") {
		fr.address = loc
	} else {
		fr.file = loc
	}
	s := rep.sites[id]
	if s == nil {
		if lev != 0 {
			return fmt.Errorf("call site %d starts at level %d, not 0", id, lev)
		}
		if len(rest) < 2 {
			return fmt.Errorf("call site %d: want the parent function and the MPI call, found %s", id, importer.Quote(line))
		}
		s = &site{id: id, call: rest[len(rest)-1], line: i + 1}
		rest = rest[:len(rest)-1]
		rep.sites[id] = s
		rep.siteList = append(rep.siteList, id)
	} else if lev != len(s.frames) {
		return fmt.Errorf("call site %d: level %d after level %d", id, lev, len(s.frames)-1)
	}
	if len(rest) == 0 {
		return fmt.Errorf("call site %d level %d: no parent function", id, lev)
	}
	fr.function = strings.Join(rest, " ")
	s.frames = append(s.frames, fr)
	return nil
}

// statRow reads "Name Site Rank Count Max Mean Min App% MPI% [Time]" or,
// for sizes, "Name Site Rank Count Max Mean Min Sum [Time]".
func (rep *report) statRow(kind statKind, title, line string, i int) error {
	f := strings.Fields(line)
	withTime := strings.Contains(title, "with time")
	want := 9
	if kind != statTime {
		want = 8
	}
	if withTime {
		want++
	}
	if len(f) != want {
		return fmt.Errorf("want %d columns, found %d in %s", want, len(f), importer.Quote(line))
	}
	st := stat{call: f[0], line: i + 1, rank: -1}
	var err error
	if st.site, err = strconv.Atoi(f[1]); err != nil || st.site < 0 {
		return fmt.Errorf("bad call site %s", importer.Quote(f[1]))
	}
	if f[2] != "*" {
		if st.rank, err = strconv.Atoi(f[2]); err != nil || st.rank < 0 {
			return fmt.Errorf("bad rank %s", importer.Quote(f[2]))
		}
	}
	names := []string{"Count", "Max", "Mean", "Min"}
	vals := []*float64{&st.count, &st.max, &st.mean, &st.min}
	for k := range vals {
		if *vals[k], err = number(f[3+k], names[k]); err != nil {
			return err
		}
	}
	if kind != statTime {
		if st.sum, err = number(f[7], "Sum"); err != nil {
			return err
		}
		st.hasSum = true
	} else if st.mpiPercent, err = number(f[8], "MPI%"); err != nil {
		return err
	}
	if withTime {
		if st.time, err = number(f[len(f)-1], "Time"); err != nil {
			return err
		}
		st.hasTime = true
	}
	rep.stats[kind] = append(rep.stats[kind], st)
	return nil
}

func number(s, column string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("column %s: %s is not a number", column, importer.Quote(s))
	}
	return v, nil
}

// clip cuts a section title for an error message: titles are the report's
// text, a hostile one is as long as its line.
func clip(s string) string {
	if len(s) > importer.MaxQuote {
		return importer.Quote(s)
	}
	return s
}

// check verifies what a truncated report would violate, with the
// report's own totals: the MPI Time section lists every task of the Task
// Assignment and its "*" total, every announced call site is listed,
// every listed call site has its aggregate ("*") row in the time
// statistics (mpiP prints one for each), the statistics name only listed
// call sites, and a 3.x report ends with its end marker. Aggregate rows
// whose shares of the MPI time do not add up to the whole are a warning
// (see warnings).
func (rep *report) check(name string) error {
	if len(rep.hosts) > 0 && len(rep.tasks) != len(rep.hosts) {
		return fmt.Errorf("%s: the MPI Time section lists %d of the %d tasks of the MPI Task Assignment (truncated?)", name, len(rep.tasks), len(rep.hosts))
	}
	if rep.total == nil {
		return fmt.Errorf("%s: the MPI Time section lacks its \"*\" row, the total over the tasks (truncated?)", name)
	}
	if rep.nSites != len(rep.sites) {
		return fmt.Errorf("%s: the Callsites section announces %d call sites but lists %d (truncated?)", name, rep.nSites, len(rep.sites))
	}
	if len(rep.sites) > 0 {
		if !rep.present[statTime] {
			return fmt.Errorf("%s: the report lists %d call sites but has no Callsite Time statistics, the section with their times (truncated?)", name, len(rep.sites))
		}
		aggregated := map[int]bool{}
		for _, st := range rep.stats[statTime] {
			if st.rank < 0 {
				aggregated[st.site] = true
			}
		}
		var missing []string
		for _, id := range rep.siteList {
			if !aggregated[id] {
				missing = append(missing, strconv.Itoa(id))
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("%s: the Callsite Time statistics lack the aggregate (\"*\") row of call site%s %s (truncated?)", name, plural(len(missing)), strings.Join(missing, ", "))
		}
	}
	for kind, rows := range rep.stats {
		n := 0
		for _, st := range rows {
			if st.rank >= 0 {
				n++
			}
		}
		if rep.declared[kind] > 0 && n > rep.declared[kind] {
			return fmt.Errorf("%s: %s announces %d rows but lists %d", name, statTitles[kind], rep.declared[kind], n)
		}
	}
	for _, kind := range []statKind{statSent, statIO} {
		if rep.aggregated[kind] > 0 && !rep.present[kind] {
			return fmt.Errorf("%s: the report's aggregate table lists %d call sites with bytes but it has no %s (truncated?)", name, rep.aggregated[kind], statTitles[kind])
		}
	}
	if v, _ := attrValue(rep.header, "mpiP Version"); strings.HasPrefix(v, "3") && !rep.ended {
		return fmt.Errorf("%s: the report ends without \"@--- End of Report\" (truncated?)", name)
	}
	return nil
}

func attrValue(as []model.Attr, key string) (string, bool) {
	for _, a := range as {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

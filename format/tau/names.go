package tau

import (
	"strconv"
	"strings"
)

// pathSeparator joins the events of a TAU call path, "a => b => c".
const pathSeparator = "=>"

// splitPath returns the trimmed events of a call path.
func splitPath(name string) []string {
	parts := strings.Split(name, pathSeparator)
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

// sourceLocation parses TAU's source location suffix of an event name,
// "name [{file} {line,col}-{line,col}]", "[{file} {line,col}]" or
// "[{file} {line}]"; a line 0 is unknown (-1).
func sourceLocation(name string) (file string, begin, end int, ok bool) {
	begin, end = -1, -1
	i := strings.LastIndex(name, "[{")
	if i < 0 || !strings.HasSuffix(name, "]") {
		return "", -1, -1, false
	}
	inner := name[i+1 : len(name)-1] // {file} {l,c}-{l,c}
	closeFile := strings.IndexByte(inner, '}')
	if closeFile < 0 {
		return "", -1, -1, false
	}
	file = inner[1:closeFile]
	rest := strings.TrimSpace(inner[closeFile+1:])
	first, second, _ := strings.Cut(rest, "-")
	begin = firstNumber(first)
	end = firstNumber(second)
	return file, begin, end, true
}

// firstNumber returns the first number in "{l,c}" or -1 when it is absent
// or 0 (TAU's "unknown").
func firstNumber(s string) int {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "{")
	s, _, _ = strings.Cut(s, "}")
	s, _, _ = strings.Cut(s, ",")
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n <= 0 {
		return -1
	}
	return n
}

// groups returns the groups of a GROUP value ("TAU_CALLPATH|MPI") without
// the call-path marker.
func groups(g string) []string {
	var out []string
	for _, s := range strings.Split(g, "|") {
		s = strings.TrimSpace(s)
		if s != "" && s != "TAU_CALLPATH" {
			out = append(out, s)
		}
	}
	return out
}

// paradigmRole maps an event's groups and name to the CUBE paradigm and
// role of its region, so that region kinds (MPI, OpenMP, …) can be told
// apart.
func paradigmRole(gs []string, name string) (paradigm, role string) {
	has := func(want ...string) bool {
		for _, g := range gs {
			for _, w := range want {
				if strings.EqualFold(g, w) {
					return true
				}
			}
		}
		return false
	}
	switch {
	case has("TAU_SAMPLE_CONTEXT"):
		return "sampling", "artificial"
	case has("TAU_SAMPLE", "TAU_UNWIND"):
		return "sampling", "function"
	case has("MPI"):
		if strings.HasPrefix(name, "MPI_Barrier") {
			return "mpi", "barrier"
		}
		return "mpi", "function"
	case has("TAU_OPENMP", "OpenMP", "OMP"):
		return "openmp", openMPRole(name)
	case has("TAU_PTHREAD", "PTHREAD"):
		return "pthread", "function"
	case has("TAU_CUDA", "CUDA", "TAU_CUDA_API"):
		return "cuda", "function"
	case has("TAU_OPENCL", "OPENCL"):
		return "opencl", "function"
	case has("SHMEM", "TAU_SHMEM"):
		return "shmem", "function"
	case has("TAU_IO", "IO"):
		return "io", "function"
	}
	return "user", "function"
}

func openMPRole(name string) string {
	for _, r := range []struct{ key, role string }{
		{"Parallel_Region", "parallel"},
		{"Implicit_Task", "implicit task"},
		{"Barrier", "barrier"},
		{"Work_Loop", "loop"},
		{"Work_Sections", "sections"},
		{"Work_Single", "single"},
		{"Master", "master"},
		{"Critical", "critical"},
		{"Task", "task"},
		{"Thread_Type", "artificial"},
	} {
		if strings.Contains(name, r.key) {
			return r.role
		}
	}
	return "function"
}

// isTimeMetric reports whether a TAU metric holds microseconds (TIME,
// GET_TIME_OF_DAY, LINUX_TIMERS, "BGP Timers", CPU_TIME, …) rather than
// counts.
func isTimeMetric(name string) bool {
	n := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(name), " ", "_"))
	return n == "TIME" || n == "GET_TIME_OF_DAY" || strings.HasSuffix(n, "_TIME") ||
		strings.HasSuffix(n, "_TIMERS") || strings.HasSuffix(n, "_TIMER") || strings.HasSuffix(n, "WALL_CLOCK")
}

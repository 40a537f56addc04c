package format

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A lookalike is a kind of file or folder that no reader reads but that
// can be told cheaply, by name or first bytes: the error then says what
// the file looks like and what to do instead.
type lookalike struct {
	what string // "an OTF2 trace"
	hint string // what to do instead; may be empty
	// file matches a file by its name and first bytes; dir matches a
	// folder by the names of its entries.
	file func(name string, head []byte) bool
	dir  func(names []string) bool
}

// maxDirNames bounds how many entries of a folder are looked at.
const maxDirNames = 2000

var lookalikes = []lookalike{
	{
		what: "a Score-P or Scalasca experiment folder",
		hint: "open a CUBE file in it:",
		dir:  func(names []string) bool { return anyName(names, isCubex) },
	},
	{
		what: "an OTF2 trace",
		hint: "traces are not read; open the profile of the same run (Score-P's profile.cubex, or Scalasca's trace analysis scout.cubex)",
		file: func(name string, head []byte) bool { return hasExt(name, ".otf2") },
		dir: func(names []string) bool {
			return anyName(names, func(n string) bool { return hasExt(n, ".otf2") })
		},
	},
	{
		what: "a Paraver trace",
		hint: "traces are not read",
		file: func(name string, head []byte) bool {
			return bytes.HasPrefix(head, []byte("#Paraver")) || hasExt(name, ".prv", ".prv.gz", ".pcf", ".row")
		},
		dir: func(names []string) bool {
			return anyName(names, func(n string) bool { return hasExt(n, ".prv", ".prv.gz") })
		},
	},
	{
		what: "HPCToolkit measurements",
		hint: "run hpcprof on the measurements folder and open the database folder it writes",
		file: func(name string, head []byte) bool {
			return hasExt(name, ".hpcrun") || bytes.HasPrefix(head, []byte("HPCRUN-profile"))
		},
		dir: func(names []string) bool { return anyName(names, func(n string) bool { return hasExt(n, ".hpcrun") }) },
	},
	{
		what: "a Chrome or Perfetto trace (JSON trace events)",
		hint: "traces are not read",
		file: func(name string, head []byte) bool {
			j := bytes.TrimLeft(head, " \t\r\n")
			return (bytes.HasPrefix(j, []byte("{")) && bytes.Contains(head, []byte(`"traceEvents"`))) ||
				(bytes.HasPrefix(j, []byte("[")) && bytes.Contains(head, []byte(`"ph":`)) && bytes.Contains(head, []byte(`"ts":`)))
		},
	},
	{
		what: "a gprof data file (gmon.out)",
		hint: `run "gprof PROGRAM gmon.out > report.txt" and open the report`,
		file: func(name string, head []byte) bool { return bytes.HasPrefix(head, []byte("gmon")) },
	},
	{
		what: "a Linux perf recording (perf.data)",
		hint: `write its samples with "perf script -i perf.data > perf.txt" and open perf.txt`,
		file: func(name string, head []byte) bool { return bytes.HasPrefix(head, []byte("PERFILE2")) },
	},
	{
		what: "an Nsight Systems report",
		hint: "export it with nsys; its format is not read",
		file: func(name string, head []byte) bool { return hasExt(name, ".nsys-rep", ".qdrep") },
	},
	{
		what: "a TAU trace",
		hint: "traces are not read; a TAU profile directory (profile.N.C.T files) is",
		file: func(name string, head []byte) bool { return hasExt(name, ".trc", ".edf") },
	},
	{
		what: "a TAU packed profile (.ppk)",
		hint: `unpack it with "paraprof --dump FILE.ppk" and open the profile directory`,
		file: func(name string, head []byte) bool { return hasExt(name, ".ppk") },
	},
	{
		what: "an SQLite database",
		hint: "an experiment repository is opened with cubeview repo --repo FILE",
		file: func(name string, head []byte) bool { return bytes.HasPrefix(head, []byte("SQLite format 3\x00")) },
	},
	{
		what: "a ZIP archive",
		hint: "unpack it first",
		file: func(name string, head []byte) bool { return bytes.HasPrefix(head, []byte("PK\x03\x04")) },
	},
	{
		what: "an xz-, bzip2- or zstd-compressed file",
		hint: "uncompress it first",
		file: func(name string, head []byte) bool {
			return bytes.HasPrefix(head, []byte("\xfd7zXZ\x00")) || bytes.HasPrefix(head, []byte("BZh")) ||
				bytes.HasPrefix(head, []byte("\x28\xb5\x2f\xfd"))
		},
	},
	{
		what: "a program or library (ELF)",
		hint: "open the profile its run wrote",
		file: func(name string, head []byte) bool { return bytes.HasPrefix(head, []byte("\x7fELF")) },
	},
}

// lookalikeOf returns what path looks like and a hint, or "" when it
// cannot tell. It reads at most maxDirNames names of a folder.
func lookalikeOf(path string, dir bool, head []byte) (what, hint string) {
	var names []string
	if dir {
		f, err := os.Open(path)
		if err != nil {
			return "", ""
		}
		names, _ = f.Readdirnames(maxDirNames)
		f.Close()
		slices.Sort(names)
	}
	base := filepath.Base(path)
	for _, l := range lookalikes {
		if dir && l.dir != nil && l.dir(names) || !dir && l.file != nil && l.file(base, head) {
			if strings.HasSuffix(l.hint, ":") { // name the files
				cubes := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !isCubex(n) })
				if len(cubes) > 3 {
					cubes = append(cubes[:3], "…")
				}
				return l.what, l.hint + " " + strings.Join(cubes, ", ")
			}
			return l.what, l.hint
		}
	}
	return "", ""
}

// lookalikeMessage is the message for a file no reader reads: generic
// says so in general, and what the file looks like follows if known.
func lookalikeMessage(path string, dir bool, head []byte, generic string) string {
	what, hint := lookalikeOf(path, dir, head)
	if what == "" {
		return path + ": " + generic
	}
	msg := path + ": this looks like " + what + ", which this program does not read"
	if dir {
		msg = path + ": is a directory that looks like " + what + ", which this program does not read as a whole"
	}
	if hint != "" {
		msg += "; " + hint
	}
	return msg
}

func hasExt(name string, exts ...string) bool {
	lower := strings.ToLower(name)
	for _, e := range exts {
		if strings.HasSuffix(lower, e) {
			return true
		}
	}
	return false
}

func anyName(names []string, f func(string) bool) bool { return slices.ContainsFunc(names, f) }

func isCubex(name string) bool { return hasExt(name, ".cubex") }

// isLookalike reports whether the input at path looks like a kind of
// file no reader reads: then a reader's weak guess is not tried.
func isLookalike(path string, dir bool, head []byte) bool {
	what, _ := lookalikeOf(path, dir, head)
	return what != ""
}

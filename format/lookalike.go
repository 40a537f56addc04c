package format

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"cubeview/format/tau"
)

// A lookalike is a kind of file or folder that no reader reads but that
// can be told cheaply, by name or first bytes: the error then says what
// the file looks like and what to do instead.
type lookalike struct {
	what string // "an OTF2 trace"
	hint string // what to do instead; may be empty
	// hintFor, if set, gives the hint for the file at path instead.
	hintFor func(path string) string
	// file matches a file by its path and first bytes (decompressed,
	// for a gzip-compressed file); dir matches a folder by the names of
	// its entries.
	file func(path string, head []byte) bool
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
		file: func(path string, head []byte) bool { return hasExt(path, ".otf2") },
		dir: func(names []string) bool {
			return anyName(names, func(n string) bool { return hasExt(n, ".otf2") })
		},
	},
	{
		what: "a Paraver trace",
		hint: "traces are not read",
		file: func(path string, head []byte) bool {
			return bytes.HasPrefix(head, []byte("#Paraver")) || hasExt(path, ".prv", ".prv.gz", ".pcf", ".row")
		},
		dir: func(names []string) bool {
			return anyName(names, func(n string) bool { return hasExt(n, ".prv", ".prv.gz") })
		},
	},
	{
		what: "HPCToolkit measurements",
		hint: "run hpcprof on the measurements folder and open the database folder it writes",
		file: func(path string, head []byte) bool {
			return hasExt(path, ".hpcrun") || bytes.HasPrefix(head, []byte("HPCRUN-profile"))
		},
		dir: func(names []string) bool { return anyName(names, func(n string) bool { return hasExt(n, ".hpcrun") }) },
	},
	{
		what: "a Perfetto trace",
		hint: `traces are not read; "traceconv profile --perf FILE" (Perfetto's converter) writes its CPU samples (or with --java-heap/--alloc its heap samples) as pprof profiles, which are read`,
		file: func(path string, head []byte) bool {
			return hasExt(path, ".perfetto-trace", ".pftrace", ".perfetto") || isPerfettoTrace(head)
		},
	},
	{
		what: "a Chrome or V8 CPU profile (.cpuprofile)",
		hint: "not read; for Node.js, write a pprof profile instead (the pprof package for Node.js does), which is read",
		file: func(path string, head []byte) bool {
			j := bytes.TrimLeft(head, " \t\r\n")
			return bytes.HasPrefix(j, []byte("{")) && bytes.Contains(head, []byte(`"hitCount"`)) &&
				(bytes.Contains(head, []byte(`"callFrame"`)) || bytes.Contains(head, []byte(`"functionName"`))) ||
				hasExt(path, ".cpuprofile")
		},
	},
	{
		what: "a Chrome or V8 heap profile (.heapprofile)",
		hint: "not read; for Node.js, write a pprof heap profile instead (the pprof package for Node.js does), which is read",
		file: func(path string, head []byte) bool {
			j := bytes.TrimLeft(head, " \t\r\n")
			return bytes.HasPrefix(j, []byte(`{"head"`)) && bytes.Contains(head, []byte(`"selfSize"`)) ||
				hasExt(path, ".heapprofile", ".heapsnapshot")
		},
	},
	{
		what:    "the metric taxonomy of an HPCToolkit database (metrics/*.yaml)",
		hintFor: hpctoolkitDatabaseHint,
		file: func(path string, head []byte) bool {
			if !hasExt(path, ".yaml", ".yaml.ex", ".yml") {
				return false
			}
			db := filepath.Dir(filepath.Dir(path))
			return filepath.Base(filepath.Dir(path)) == "metrics" && (exists(filepath.Join(db, "meta.db")) || exists(filepath.Join(db, "experiment.xml"))) ||
				bytes.Contains(head, []byte("\ninputs:")) && bytes.Contains(head, []byte("combine:")) ||
				bytes.Contains(head, []byte("metric taxonomies"))
		},
	},
	{
		what: "a tar archive of TAU profiles",
		hint: `unpack it ("tar xf FILE") and open the profile folder in it`,
		file: func(path string, head []byte) bool {
			return slices.ContainsFunc(tarNames(head), func(n string) bool { return tau.IsProfileName(filepath.Base(n)) })
		},
	},
	{
		what: "a tar archive",
		hint: `unpack it ("tar xf FILE") and open the profile in it`,
		file: func(path string, head []byte) bool { return len(tarNames(head)) > 0 },
	},
	{
		what: "a Chrome or Perfetto trace (JSON trace events)",
		hint: "traces are not read",
		file: func(path string, head []byte) bool {
			j := bytes.TrimLeft(head, " \t\r\n")
			return (bytes.HasPrefix(j, []byte("{")) && bytes.Contains(head, []byte(`"traceEvents"`))) ||
				(bytes.HasPrefix(j, []byte("[")) && bytes.Contains(head, []byte(`"ph":`)) && bytes.Contains(head, []byte(`"ts":`)))
		},
	},
	{
		what: "a gprof data file (gmon.out)",
		hint: `run "gprof PROGRAM gmon.out > report.txt" and open the report`,
		file: func(path string, head []byte) bool { return bytes.HasPrefix(head, []byte("gmon")) },
	},
	{
		what: "a Linux perf recording (perf.data)",
		hint: `write its samples with "perf script -i perf.data > perf.txt" and open perf.txt`,
		file: func(path string, head []byte) bool { return bytes.HasPrefix(head, []byte("PERFILE2")) },
	},
	{
		what: "an Nsight Systems report",
		hint: "export it with nsys; its format is not read",
		file: func(path string, head []byte) bool { return hasExt(path, ".nsys-rep", ".qdrep") },
	},
	{
		what: "a TAU trace",
		hint: "traces are not read; a TAU profile directory (profile.N.C.T files) is",
		file: func(path string, head []byte) bool { return hasExt(path, ".trc", ".edf") },
	},
	{
		what: "an SQLite database",
		hint: "an experiment repository is opened with cubeview repo --repo FILE",
		file: func(path string, head []byte) bool { return bytes.HasPrefix(head, []byte("SQLite format 3\x00")) },
	},
	{
		what: "a ZIP archive",
		hint: "unpack it first",
		file: func(path string, head []byte) bool { return bytes.HasPrefix(head, []byte("PK\x03\x04")) },
	},
	{
		what: "an xz-, bzip2- or zstd-compressed file",
		hint: "uncompress it first",
		file: func(path string, head []byte) bool {
			return bytes.HasPrefix(head, []byte("\xfd7zXZ\x00")) || bytes.HasPrefix(head, []byte("BZh")) ||
				bytes.HasPrefix(head, []byte("\x28\xb5\x2f\xfd"))
		},
	},
	{
		what: "a program or library (ELF)",
		hint: "open the profile its run wrote",
		file: func(path string, head []byte) bool { return bytes.HasPrefix(head, []byte("\x7fELF")) },
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
	for _, l := range lookalikes {
		if dir && l.dir != nil && l.dir(names) || !dir && l.file != nil && l.file(path, head) {
			if l.hintFor != nil {
				return l.what, l.hintFor(path)
			}
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

// isPerfettoTrace reports whether head starts a Perfetto trace: a
// protobuf Trace message, which is a run of TracePacket fields (number 1,
// length-delimited), whose first packet holds a timestamp (field 8) or
// the trusted sequence id (field 10) or uid (field 3) that every packet
// the tracing service writes has.
func isPerfettoTrace(head []byte) bool {
	if len(head) < 2 || head[0] != 0x0a {
		return false
	}
	l, n := binary.Uvarint(head[1:])
	if n <= 0 || l == 0 {
		return false
	}
	packet := head[1+n:]
	if l < uint64(len(packet)) {
		packet = packet[:l]
	}
	for len(packet) > 0 {
		key, n := binary.Uvarint(packet)
		if n <= 0 {
			return false
		}
		packet = packet[n:]
		num, wire := key>>3, key&7
		switch wire {
		case 0:
			if num == 8 || num == 10 || num == 3 {
				return true
			}
			_, n = binary.Uvarint(packet)
		case 1:
			n = 8
		case 2:
			var l uint64
			l, n = binary.Uvarint(packet)
			if n > 0 {
				n += int(min(l, uint64(len(packet))))
			}
		case 5:
			n = 4
		default:
			return false
		}
		if n <= 0 || n > len(packet) {
			return false
		}
		packet = packet[n:]
	}
	return false
}

// tarNames returns the names of the members whose tar headers lie in
// head, nil if head does not start with a tar header.
func tarNames(head []byte) []string {
	var names []string
	for off := 0; off+512 <= len(head); {
		h := head[off : off+512]
		if h[0] == 0 || string(h[257:262]) != "ustar" {
			break
		}
		name := string(bytes.TrimRight(h[:100], "\x00"))
		if prefix := string(bytes.TrimRight(h[345:500], "\x00")); prefix != "" && string(h[257:263]) == "ustar\x00" {
			name = prefix + "/" + name
		}
		names = append(names, name)
		size, err := strconv.ParseInt(strings.Trim(string(h[124:136]), " \x00"), 8, 64)
		if err != nil || size < 0 {
			break
		}
		off += 512 + int((size+511)/512*512)
	}
	return names
}

// hpctoolkitDatabaseHint names the database folder that holds the
// metrics folder of path.
func hpctoolkitDatabaseHint(path string) string {
	db := filepath.Dir(filepath.Dir(path))
	if exists(filepath.Join(db, "meta.db")) || exists(filepath.Join(db, "experiment.xml")) {
		return "open the database folder " + db
	}
	return "open the database folder that holds it (the one with meta.db)"
}

func exists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

package repo

import (
	"path/filepath"
	"strings"
)

// genericStems are the file names (before the first dot) that Score-P,
// Scalasca and KOJAK give every experiment, so that they say nothing of
// the run: the experiment's folder ("scorep_tea_leaf_8x12_trace",
// "epik_lulesh_64_sum") names it.
var genericStems = map[string]bool{
	"profile": true, "summary": true, "trace": true, "scout": true,
	"epitome": true, "expert": true,
}

// mainStems are the generic names of an experiment folder's own profile,
// the one that the folder's name alone names; the others (Scalasca's
// trace analysis) keep theirs after it: "scorep_x_trace (scout)".
var mainStems = map[string]bool{"profile": true, "summary": true, "epitome": true}

// defaultName names a trial after its file, or after its experiment
// folder when the file's name is one every experiment has.
func defaultName(path string) string {
	base := filepath.Base(path)
	stem, ext, _ := strings.Cut(base, ".")
	if !genericStems[stem] || !isCubeExt(ext) {
		return base
	}
	dir := filepath.Base(filepath.Dir(path))
	if dir == "." || dir == string(filepath.Separator) || dir == "" {
		return base
	}
	if mainStems[stem] {
		return dir
	}
	return dir + " (" + stem + ")"
}

// isCubeExt reports whether ext (after the first dot) is a CUBE file's.
func isCubeExt(ext string) bool {
	switch ext {
	case "cubex", "cube", "cube.gz":
		return true
	}
	return false
}

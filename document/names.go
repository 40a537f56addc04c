package document

import (
	"path/filepath"
	"strings"

	"cubeview/algebra"
)

// Derived experiments are named by their expression in a form for people:
// operands by short file names ("before" for /runs/before.cubex), a
// difference as "a − b", the other operators in function notation, e.g.
// "mean(run1, run2) − mean(run3, run4)".

// experimentExtensions are stripped from file names, longest first.
var experimentExtensions = []string{".cube.gz", ".cubex", ".cube", ".gz"}

// ShortName returns the base name of path without its experiment extension.
func ShortName(path string) string {
	base := filepath.Base(path)
	lower := strings.ToLower(base)
	for _, ext := range experimentExtensions {
		if strings.HasSuffix(lower, ext) && len(base) > len(ext) {
			return base[:len(base)-len(ext)]
		}
	}
	return base
}

// shortNames names each distinct path by its short name, adding parent
// folders where two paths would otherwise get the same name
// (r1/mm and r2/mm).
func shortNames(paths []string) map[string]string {
	return distinctTails(paths, func(parts []string, p string, depth int) string {
		parts[len(parts)-1] = ShortName(p)
		return strings.Join(parts[len(parts)-depth:], "/")
	})
}

// distinctPaths names each distinct path by as many of its last elements
// as tell it from the others, with "…/" where folders are left out:
// Scalasca names every file scout.cubex, so two of them read
// "…/tea_leaf_baseline_8x12_trace/scout.cubex" and
// "…/tea_leaf_optimized_8x12_trace/scout.cubex".
func distinctPaths(paths []string) map[string]string {
	return distinctTails(paths, func(parts []string, _ string, depth int) string {
		s := strings.Join(parts[len(parts)-depth:], "/")
		switch rest := parts[:len(parts)-depth]; {
		case depth == 1 || len(rest) == 0:
		case len(rest) == 1 && rest[0] == "":
			s = "/" + s // all but the root: the whole path
		default:
			s = "…/" + s
		}
		return s
	})
}

// distinctTails names each distinct path by name(parts, path, depth), its
// last depth elements rendered, with the least depth that keeps the
// names distinct.
func distinctTails(paths []string, name func(parts []string, p string, depth int) string) map[string]string {
	names := map[string]string{}
	var distinct []string
	for _, p := range paths {
		if _, ok := names[p]; !ok {
			names[p] = ""
			distinct = append(distinct, p)
		}
	}
	nameAt := func(p string, depth int) string {
		parts := strings.Split(filepath.ToSlash(filepath.Clean(p)), "/")
		return name(parts, p, min(depth, len(parts)))
	}
	depth := map[string]int{}
	for _, p := range distinct {
		depth[p] = 1
	}
	for round := 0; round < 8; round++ {
		byName := map[string][]string{}
		for _, p := range distinct {
			n := nameAt(p, depth[p])
			byName[n] = append(byName[n], p)
		}
		clash := false
		for _, ps := range byName {
			if len(ps) > 1 {
				clash = true
				for _, p := range ps {
					depth[p]++
				}
			}
		}
		if !clash {
			break
		}
	}
	for _, p := range distinct {
		names[p] = nameAt(p, depth[p])
	}
	return names
}

// displayExpr renders x for people; name gives the text of a file operand.
func displayExpr(x *algebra.Expr, name func(file string) string) string {
	arg := func(a *algebra.Expr, inDiff bool) string {
		s := displayExpr(a, name)
		if inDiff && (a.Op == algebra.OpDiff || a.Op == algebra.NoOp && topLevelMinus(s)) {
			return "(" + s + ")"
		}
		return s
	}
	if x.Op == algebra.NoOp {
		return name(x.File)
	}
	if o, _ := x.Op.Info(); o.Symbol != "" && len(x.Args) == 2 {
		return arg(x.Args[0], true) + " " + o.Symbol + " " + arg(x.Args[1], true)
	}
	parts := make([]string, 0, len(x.Args)+len(x.Reroot)+len(x.Prune))
	for _, a := range x.Args {
		parts = append(parts, arg(a, false))
	}
	for _, r := range x.Reroot {
		parts = append(parts, "reroot "+r)
	}
	for _, p := range x.Prune {
		parts = append(parts, "prune "+p)
	}
	return x.Op.String() + "(" + strings.Join(parts, ", ") + ")"
}

// topLevelMinus reports whether s is a difference outside any parentheses.
func topLevelMinus(s string) bool {
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case '−':
			if depth == 0 && i > 0 && s[i-1] == ' ' {
				return true
			}
		}
	}
	return false
}

// NameOfExpression renders a parsed algebra expression as recorded in a
// derived experiment (files by path) for people, and names its direct
// operands the same way. ok is false for nil (an expression that did not
// parse).
func NameOfExpression(x *algebra.Expr) (name string, operands []string, ok bool) {
	if x == nil {
		return "", nil, false
	}
	short := shortNames(x.Files())
	file := func(f string) string { return short[f] }
	if x.Op == algebra.NoOp {
		return file(x.File), nil, true
	}
	for _, a := range x.Args {
		operands = append(operands, displayExpr(a, file))
	}
	return displayExpr(x, file), operands, true
}

package layering

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// maxMethods is the most methods a type of the module may have, and the
// most exported methods. A type above it does several things: give a
// coherent group of its methods a small type of its own or make them
// functions.
const maxMethods = 40

// overMethods lists the types that had more than maxMethods methods
// (exported and unexported together) when this check began, with the
// count they may not pass; they may only shrink, and a type that gets to
// maxMethods leaves the list. Their exported methods are within
// maxMethods like every type's.
var overMethods = map[string]int{}

// typeMethods counts the methods of every named type in the module's
// non-test files: key "pkgdir.Type" (pkgdir relative to the module), with
// the methods a type gets from the module's types it embeds. Methods
// promoted from types outside the module (a toolkit widget) do not count.
type typeMethods struct {
	all, exported map[string]int
}

// pkgInfo is what one package directory declares.
type pkgInfo struct {
	methods  map[string][]string        // type → its own method names
	embedded map[string][]embeddedField // type → the types its struct embeds
}

type embeddedField struct {
	dir, typ string // dir "" for the same package
}

// countMethods parses the module below root.
func countMethods(t *testing.T, root string) typeMethods {
	t.Helper()
	pkgs := map[string]*pkgInfo{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		dir = filepath.ToSlash(dir)
		p := pkgs[dir]
		if p == nil {
			p = &pkgInfo{methods: map[string][]string{}, embedded: map[string][]embeddedField{}}
			pkgs[dir] = p
		}
		collect(p, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := typeMethods{all: map[string]int{}, exported: map[string]int{}}
	for dir, p := range pkgs {
		for typ := range p.methods {
			names := map[string]bool{}
			promote(pkgs, dir, typ, names, map[string]bool{}, true)
			key := dir + "." + typ
			for n := range names {
				out.all[key]++
				if ast.IsExported(n) {
					out.exported[key]++
				}
			}
		}
	}
	return out
}

// collect records the methods and embedded fields of one file.
func collect(p *pkgInfo, f *ast.File) {
	imports := map[string]string{} // local name → directory in the module
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		if path != module && !strings.HasPrefix(path, module+"/") {
			continue
		}
		dir := rel(path)
		local := dir[strings.LastIndex(dir, "/")+1:]
		if im.Name != nil {
			local = im.Name.Name
		}
		imports[local] = dir
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				continue
			}
			if typ := baseName(d.Recv.List[0].Type); typ != "" {
				p.methods[typ] = append(p.methods[typ], d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok {
					continue
				}
				if _, ok := p.methods[ts.Name.Name]; !ok {
					p.methods[ts.Name.Name] = nil
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, field := range st.Fields.List {
					if len(field.Names) > 0 {
						continue
					}
					x := field.Type
					if s, ok := x.(*ast.StarExpr); ok {
						x = s.X
					}
					switch x := x.(type) {
					case *ast.Ident:
						p.embedded[ts.Name.Name] = append(p.embedded[ts.Name.Name], embeddedField{typ: x.Name})
					case *ast.SelectorExpr:
						if id, ok := x.X.(*ast.Ident); ok {
							if dir, ok := imports[id.Name]; ok {
								p.embedded[ts.Name.Name] = append(p.embedded[ts.Name.Name], embeddedField{dir: dir, typ: x.Sel.Name})
							}
						}
					}
				}
			}
		}
	}
}

// baseName returns the type name of a receiver: T of T, *T, T[P], *T[P].
func baseName(x ast.Expr) string {
	if s, ok := x.(*ast.StarExpr); ok {
		x = s.X
	}
	switch t := x.(type) {
	case *ast.IndexExpr:
		x = t.X
	case *ast.IndexListExpr:
		x = t.X
	}
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// promote adds the names of the methods of dir's type typ, its own and
// those of the module's types it embeds, to names; from another package
// only exported methods are promoted.
func promote(pkgs map[string]*pkgInfo, dir, typ string, names, seen map[string]bool, own bool) {
	key := dir + "." + typ
	p := pkgs[dir]
	if seen[key] || p == nil {
		return
	}
	seen[key] = true
	for _, n := range p.methods[typ] {
		if own || ast.IsExported(n) {
			names[n] = true
		}
	}
	for _, e := range p.embedded[typ] {
		if e.dir == "" {
			promote(pkgs, dir, e.typ, names, seen, own)
		} else {
			promote(pkgs, e.dir, e.typ, names, seen, false)
		}
	}
}

// methodProblems returns a message for each type above the limits.
func methodProblems(counts typeMethods, over map[string]int) []string {
	var bad []string
	keys := make([]string, 0, len(counts.all))
	for k := range counts.all {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	const remedy = "give a coherent group of them a type of its own, or make them functions"
	for _, k := range keys {
		all, exp := counts.all[k], counts.exported[k]
		if exp > maxMethods {
			bad = append(bad, fmt.Sprintf("%s has %d exported methods (at most %d): %s", k, exp, maxMethods, remedy))
		}
		limit, listed := over[k]
		switch {
		case !listed && all > maxMethods:
			bad = append(bad, fmt.Sprintf("%s has %d methods (at most %d): %s", k, all, maxMethods, remedy))
		case listed && all > limit:
			bad = append(bad, fmt.Sprintf("%s has %d methods, more than the %d it had (it may only shrink towards %d): %s", k, all, limit, maxMethods, remedy))
		case listed && all <= maxMethods:
			bad = append(bad, fmt.Sprintf("%s has %d methods now: remove it from overMethods", k, all))
		}
	}
	for k := range over {
		if _, ok := counts.all[k]; !ok {
			bad = append(bad, "overMethods names "+k+", which the module does not have")
		}
	}
	return bad
}

// TestMethodsPerType fails when a type of the module has more than
// maxMethods exported methods, or more than maxMethods methods in all
// (or than its count in overMethods).
func TestMethodsPerType(t *testing.T) {
	counts := countMethods(t, "../..")
	for _, msg := range methodProblems(counts, overMethods) {
		t.Error(msg)
	}
	for k, limit := range overMethods {
		if n := counts.all[k]; n < limit {
			t.Logf("%s has %d methods now: lower its count in overMethods from %d", k, n, limit)
		}
	}
}

// TestMethodCounter checks the counter on a made-up module: own methods,
// pointer and generic receivers, methods promoted through embedding
// within the package and (only exported ones) from another package.
func TestMethodCounter(t *testing.T) {
	root := t.TempDir()
	write := func(path, src string) {
		t.Helper()
		full := filepath.Join(root, path)
		if err := mkdirWrite(full, src); err != nil {
			t.Fatal(err)
		}
	}
	write("a/a.go", `package a
import "cubeview/b"
type Big struct{ small; *b.Part; other int }
type small struct{}
type G[T any] struct{}
func (Big) One() {}
func (*Big) two() {}
func (small) Three() {}
func (*small) four() {}
func (G[T]) Five() {}
`)
	write("b/b.go", `package b
type Part struct{}
func (Part) Six() {}
func (*Part) seven() {}
`)
	write("a/a_test.go", "package a\nfunc (Big) InTest() {}\n")
	got := countMethods(t, root)
	want := []struct {
		key           string
		all, exported int
	}{
		{"a.Big", 5, 3}, // One two Three four Six
		{"a.small", 2, 1},
		{"a.G", 1, 1},
		{"b.Part", 2, 1},
	}
	for _, w := range want {
		if got.all[w.key] != w.all || got.exported[w.key] != w.exported {
			t.Errorf("%s: %d methods, %d exported; want %d, %d", w.key, got.all[w.key], got.exported[w.key], w.all, w.exported)
		}
	}
	// A type above the limit is reported, a listed one above its count.
	var src strings.Builder
	src.WriteString("package c\ntype Wide struct{}\n")
	for i := range maxMethods + 1 {
		fmt.Fprintf(&src, "func (Wide) M%d() {}\nfunc (Wide) m%d() {}\n", i, i)
	}
	write("c/c.go", src.String())
	counts := countMethods(t, root)
	bad := methodProblems(counts, nil)
	if len(bad) != 2 || !strings.HasPrefix(bad[0], "c.Wide has 41 exported methods") || !strings.HasPrefix(bad[1], "c.Wide has 82 methods") {
		t.Errorf("c.Wide: reported %q", bad)
	}
	if bad := methodProblems(counts, map[string]int{"c.Wide": 81}); len(bad) != 2 || !strings.Contains(bad[1], "more than the 81") {
		t.Errorf("c.Wide listed with 81: reported %q", bad)
	}
	if bad := methodProblems(counts, map[string]int{"c.Wide": 82, "a.Big": 50}); len(bad) != 2 || !strings.HasPrefix(bad[0], "a.Big has 5 methods now: remove it") {
		t.Errorf("c.Wide listed with 82, a.Big with 50: reported %q", bad)
	}
}

func mkdirWrite(path, src string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(src), 0o644)
}

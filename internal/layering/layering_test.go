package layering

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// rules is the allowed-imports table: DESIGN §5's layers, as Go's own
// go/build/deps_test.go keeps the standard library's. Each line reads
//
//	IMPORTERS: ALLOWED …
//
// and says which packages of the module the importers may import
// directly. Paths are relative to the module ("model", "format/tau");
// "x/..." is x and every package below it; in "format/{r}/..." the
// braces capture a path element that ALLOWED may repeat (a reader's own
// subpackages); "@helpers" and "@kits" are the groups below; "-" allows
// nothing of the module. The first line whose importer pattern matches a
// package is its rule, so that a general pattern comes last. A package
// no line matches fails the test: a new layer needs a line here.
const rules = `
# the bottom: data model, leaves of formatting and colour, the form model
model:            -
numfmt:           -
colormap:         -
form:             -
internal/layering: -

# test kits may import the product (but no window); small helpers may not
@kits:            model numfmt colormap algebra analysis format/... repo sourceview @helpers @kits
@helpers:         @helpers

# readers: each one package (with subpackages of its own) over the model,
# the shared builder and importer; no reader imports another
format/importer:  model @helpers
format/internal/...: model format/importer format/internal/... @helpers
format/{r}/...:   model format/importer format/internal/... format/{r}/... @helpers
# the registry of readers
format:           model format/... @helpers

algebra:          model numfmt @helpers
analysis/significance: @helpers
analysis/cluster:  model @helpers
analysis:         model algebra numfmt analysis/significance @helpers
chart:            model numfmt colormap @helpers
sourceview:       model @helpers
repo:             model format algebra numfmt @helpers
assets/...:       model format assets/... @helpers

# the command line: thin, over the packages above; no window state
cli:              model numfmt colormap algebra analysis/... chart format repo sourceview @helpers

# window state without widgets
view:             model numfmt colormap form algebra analysis/... format sourceview assets @helpers
# what a window shows: an open experiment and the algebra operations over them
document:         model algebra format view @helpers
dialogform:       model numfmt form algebra format view document @helpers
analysisview:     model numfmt colormap form algebra analysis/... chart format view document dialogform @helpers
sourcepanel:      model numfmt colormap form algebra sourceview view document @helpers
repoview:         model numfmt form algebra analysis/... format repo view document analysisview @helpers
# over window state: the window's menus and commands, the GUI's command line
menu:             model numfmt algebra view document @helpers
launch:           model format view @helpers

# widgets: draw what the state packages computed (no analysis); a chart's
# drawing comes from analysisview, ui keeps it for hit-testing
ui:               model numfmt colormap form algebra format repo sourceview view document dialogform analysisview sourcepanel repoview menu launch chart @helpers

# the program
.:                cli ui view launch format model @helpers
`

// groups are the "@" names of rules: patterns of packages.
var groups = map[string][]string{
	// small leaf helpers: every internal package but the kits and this one
	"@helpers": {"internal/{h}/..."},
	// test-only kits
	"@kits": {"internal/testkit/...", "internal/synth/..."},
}

// notHelpers are the internal packages that are no helpers.
var notHelpers = []string{"internal/testkit/...", "internal/synth/...", "internal/layering"}

// external are the modules outside the standard library that only some
// packages may import: the toolkit only the program and the widgets, its
// application package only the program, plots only chart, database
// drivers only repo. Other modules are free to import.
var external = []struct {
	prefix string
	only   []string
}{
	{"fyne.io/fyne/v2/app", []string{"."}},
	{"fyne.io/", []string{".", "ui"}},
	{"gonum.org/", []string{"chart"}},
	{"github.com/jackc/", []string{"repo"}},
	{"modernc.org/sqlite", []string{"repo"}},
}

const module = "cubeview"

type rule struct {
	importer string
	allowed  []string
}

// parseRules reads the table; a malformed line is the test's error.
func parseRules(t *testing.T, text string) []rule {
	t.Helper()
	var out []rule
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		imp, allowed, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("rules: no colon in %q", line)
		}
		r := rule{importer: strings.TrimSpace(imp)}
		for _, a := range strings.Fields(allowed) {
			if a != "-" {
				r.allowed = append(r.allowed, a)
			}
		}
		out = append(out, r)
	}
	return out
}

// isHelper reports whether pkg is one of the small internal helpers.
func isHelper(pkg string) bool {
	for _, p := range notHelpers {
		if _, ok := match(p, pkg, nil); ok {
			return false
		}
	}
	_, ok := match(groups["@helpers"][0], pkg, nil)
	return ok
}

// expand replaces a group name by its patterns.
func expand(pattern string) []string {
	if g, ok := groups[pattern]; ok {
		return g
	}
	return []string{pattern}
}

// match reports whether pkg matches pattern, and what "{name}" captured.
func match(pattern, pkg string, captured map[string]string) (map[string]string, bool) {
	if pattern == "." {
		return captured, pkg == "."
	}
	sub := strings.HasSuffix(pattern, "/...")
	pattern = strings.TrimSuffix(pattern, "/...")
	pp, kp := strings.Split(pattern, "/"), strings.Split(pkg, "/")
	if len(kp) < len(pp) || (!sub && len(kp) != len(pp)) {
		return nil, false
	}
	got := map[string]string{}
	for k, v := range captured {
		got[k] = v
	}
	for i, p := range pp {
		if strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}") {
			if v, ok := got[p]; ok && v != kp[i] {
				return nil, false
			}
			got[p] = kp[i]
			continue
		}
		if p != kp[i] {
			return nil, false
		}
	}
	return got, true
}

// ruleFor returns the rule of pkg and what its importer pattern captured.
func ruleFor(rules []rule, pkg string) (rule, map[string]string, bool) {
	for _, r := range rules {
		if r.importer == "@helpers" {
			if isHelper(pkg) {
				return r, nil, true
			}
			continue
		}
		for _, p := range expand(r.importer) {
			if c, ok := match(p, pkg, nil); ok {
				return r, c, true
			}
		}
	}
	return rule{}, nil, false
}

// check returns the imports of graph (package → its direct imports, by
// full import path) that the rules do not allow, one message each.
func check(rules []rule, graph map[string][]string) []string {
	var bad []string
	pkgs := make([]string, 0, len(graph))
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	for _, full := range pkgs {
		pkg := rel(full)
		r, captured, ok := ruleFor(rules, pkg)
		if !ok {
			bad = append(bad, full+": no rule in the allowed-imports table; place the package in its layer")
			continue
		}
		for _, imp := range graph[full] {
			if ext, ok := externalRule(imp); ok {
				if !slices.Contains(ext, pkg) {
					bad = append(bad, full+" imports "+imp+": only "+strings.Join(ext, ", ")+" may")
				}
				continue
			}
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue // standard library and free modules
			}
			if !allows(r, captured, rel(imp)) {
				bad = append(bad, full+" imports "+imp+": not allowed by the rule "+r.importer+": "+strings.Join(r.allowed, " "))
			}
		}
	}
	return bad
}

func allows(r rule, captured map[string]string, imp string) bool {
	for _, a := range r.allowed {
		if a == "@helpers" {
			if isHelper(imp) {
				return true
			}
			continue
		}
		for _, p := range expand(a) {
			if _, ok := match(p, imp, captured); ok {
				return true
			}
		}
	}
	return false
}

func externalRule(imp string) ([]string, bool) {
	for _, e := range external {
		if strings.HasPrefix(imp, e.prefix) {
			return e.only, true
		}
	}
	return nil, false
}

// rel returns a module package's path relative to the module, "." for
// the module's root.
func rel(pkg string) string {
	if pkg == module {
		return "."
	}
	return strings.TrimPrefix(pkg, module+"/")
}

// importGraph lists the direct imports of the module's packages (their
// non-test files) with go list; overlay, if not "", is a -overlay file.
func importGraph(t *testing.T, overlay string) map[string][]string {
	t.Helper()
	args := []string{"list", "-e", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}"}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	cmd := exec.Command("go", append(args, "./...")...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list: %v\n%s", err, msg)
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		graph[f[0]] = f[1:]
	}
	return graph
}

// TestAllowedImports checks every import of the module's packages against
// the table: a wrong arrow fails.
func TestAllowedImports(t *testing.T) {
	for _, msg := range check(parseRules(t, rules), importGraph(t, "")) {
		t.Error(msg)
	}
}

// TestCheckerFindsWrongArrows checks the checker on a made-up graph: the
// allowed arrows pass, each wrong one is reported, a package without a
// rule is reported.
func TestCheckerFindsWrongArrows(t *testing.T) {
	m := func(p string) string { return rel2full(p) }
	good := map[string][]string{
		m("model"):              {"fmt"},
		m("format/tau"):         {m("model"), m("format/internal/build"), m("format/importer"), m("format/tau/xml"), "github.com/x/y"},
		m("format/tau/xml"):     {m("model")},
		m("format/newtool"):     {m("model"), m("format/internal/build"), m("internal/atomicfile")},
		m("format"):             {m("format/tau"), m("format/newtool"), m("model")},
		m("internal/newhelper"): {m("internal/atomicfile")},
		m("ui"):                 {"fyne.io/fyne/v2/widget", m("view"), m("analysisview")},
		m("view"):               {m("form"), m("model")},
		m("chart"):              {"gonum.org/v1/plot"},
		module:                  {"fyne.io/fyne/v2/app", m("ui")},
	}
	if bad := check(parseRules(t, rules), good); len(bad) > 0 {
		t.Errorf("allowed arrows reported: %q", bad)
	}
	wrong := []struct{ from, to string }{
		{"model", m("numfmt")},                // the bottom imports nothing of ours
		{"format/tau", m("format/cube")},      // a reader imports another
		{"format/newtool", m("algebra")},      // a reader above its layer
		{"view", m("analysisview")},           // state below imports state above
		{"view", m("dialogform")},             // window state imports its dialogs' forms
		{"view", m("ui")},                     // state imports widgets
		{"ui", m("analysis")},                 // widgets compute values
		{"cli", m("view")},                    // the command line knows window state
		{"form", m("model")},                  // the form model is a leaf
		{"internal/atomicfile", m("model")},   // a helper imports the product
		{"view", m("internal/testkit")},       // the product imports a test kit
		{"analysis", "fyne.io/fyne/v2/theme"}, // the toolkit outside ui
		{"ui", "fyne.io/fyne/v2/app"},         // the application outside main
		{"view", "gonum.org/v1/plot"},         // plots outside chart
	}
	for _, w := range wrong {
		g := map[string][]string{m(w.from): {w.to}}
		bad := check(parseRules(t, rules), g)
		if len(bad) != 1 || !strings.Contains(bad[0], w.to) {
			t.Errorf("%s → %s: reported %q, want one error naming it", w.from, w.to, bad)
		}
	}
	if bad := check(parseRules(t, rules), map[string][]string{m("newlayer"): nil}); len(bad) != 1 || !strings.Contains(bad[0], "no rule") {
		t.Errorf("a package without a rule: %q", bad)
	}
}

func rel2full(p string) string { return module + "/" + p }

// TestPlantedWrongImportFails plants wrong imports into the real tree
// through go list's -overlay (no file on disk changes) and checks that
// the table reports each: the command line importing window state, a
// reader importing another, the data model importing a formatter.
func TestPlantedWrongImportFails(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	plants := []struct{ dir, pkg, imp string }{
		{"cli", "cli", "cubeview/view"},
		{"format/tau", "tau", "cubeview/format/cube"},
		{"model", "model", "cubeview/numfmt"},
	}
	replace := map[string]string{}
	dir := t.TempDir()
	for i, p := range plants {
		src := filepath.Join(dir, p.pkg+".go")
		if err := os.WriteFile(src, []byte("package "+p.pkg+"\n\nimport _ \""+p.imp+"\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		replace[filepath.Join(root, p.dir, "zz_planted_"+string(rune('a'+i))+".go")] = src
	}
	js, _ := json.Marshal(map[string]any{"Replace": replace})
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlay, js, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := check(parseRules(t, rules), importGraph(t, overlay))
	for _, p := range plants {
		want := "cubeview/" + p.dir + " imports " + p.imp
		if !slices.ContainsFunc(bad, func(s string) bool { return strings.HasPrefix(s, want+":") }) {
			t.Errorf("planted %s → %s not reported; reported %q", p.dir, p.imp, bad)
		}
	}
	if len(bad) != len(plants) {
		t.Errorf("%d errors for %d planted imports: %q", len(bad), len(plants), bad)
	}
}

package layering

import (
	"os/exec"
	"strings"
	"testing"
)

func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list %v: %v\n%s", args, err, msg)
	}
	return strings.Fields(string(out))
}

// uiPackages may depend on Fyne; every other package must not (DESIGN §5).
var uiPackages = map[string]bool{"cubeview": true, "cubeview/ui": true}

func TestPurePackagesDoNotImportFyne(t *testing.T) {
	for _, pkg := range goList(t, "./...") {
		if uiPackages[pkg] {
			continue
		}
		t.Run(pkg, func(t *testing.T) {
			for _, dep := range goList(t, "-deps", pkg) {
				if strings.HasPrefix(dep, "fyne.io/") {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		})
	}
}

func TestModelIsAtTheBottom(t *testing.T) {
	for _, dep := range goList(t, "-deps", "./model") {
		if strings.HasPrefix(dep, "cubeview/") && dep != "cubeview/model" {
			t.Errorf("model depends on %s", dep)
		}
	}
}

func TestOnlyMainImportsFyneApp(t *testing.T) {
	lines := goList(t, "-f", `{{.ImportPath}}:{{join .Imports ","}}`, "./...")
	for _, l := range lines {
		pkg, imports, _ := strings.Cut(l, ":")
		for _, imp := range strings.Split(imports, ",") {
			if imp == "fyne.io/fyne/v2/app" && pkg != "cubeview" {
				t.Errorf("%s imports fyne.io/fyne/v2/app; only the main package may", pkg)
			}
		}
	}
}

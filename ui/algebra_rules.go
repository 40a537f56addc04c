package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"cubeview/algebra"
)

// The algebra dialogs take the command line's matching options: region
// renaming rules (--rename OLD=NEW, for functions renamed between two
// versions of a program) and strict root matching (--strict-roots; by
// default single call-tree roots match whatever their names, since
// Score-P names the root after the executable). The result records them
// in its provenance as the command line does.

// newMatchingOptions makes the widgets of the renaming rules and strict
// root matching.
func (f *operationForm) newMatchingOptions() {
	f.strictRoots = widget.NewCheck("Strict root matching (call-tree roots of different regions stay apart; "+
		"by default, when every operand has one root, the roots match whatever their names)", func(bool) { f.update() })
	f.renames = widget.NewMultiLineEntry()
	f.renames.SetMinRowsVisible(2)
	f.renames.SetPlaceHolder("OLD=NEW, one rule a line, applied in order, e.g. tea_leaf_.*=tea_leaf")
	f.renames.OnChanged = func(string) { f.update() }
}

// addMatchingOptions adds the renaming rules and strict root matching to
// the form's options.
func (f *operationForm) addMatchingOptions(options *widget.Form) {
	help := widget.NewLabel("Regions are renamed in every operand before matching, for functions renamed between versions: " +
		"OLD is a regular expression that must match the whole name, NEW may use $1 …; write \\= for a '=' in OLD.")
	help.Wrapping = fyne.TextWrapWord
	help.Importance = widget.LowImportance
	options.Append("", f.strictRoots)
	options.Append("Rename regions", f.renames)
	options.Append("", help)
}

// renameRules reads renaming rules, one a line; blank lines are skipped.
func renameRules(text string) ([]algebra.Rename, error) {
	var rules []algebra.Rename
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		r, err := algebra.ParseRename(line)
		if err != nil {
			return nil, fmt.Errorf("line %d of the renaming rules: %w", i+1, err)
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// matchingNote says how a result's call-tree roots were matched, for the
// result's window; "" when nothing needs saying.
func matchingNote(d *Document) string {
	p, ok, err := algebra.ReadProvenance(d.Exp)
	if !ok || err != nil || p.Roots == "" {
		return ""
	}
	return strings.ToUpper(p.Roots[:1]) + p.Roots[1:] + " (Strict root matching in the algebra dialogs keeps them apart)."
}

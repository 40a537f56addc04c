package dialogform

import (
	"fmt"
	"strings"

	"cubeview/form"
	"cubeview/model"
)

// MemoryForm is File › Memory for one metric…: how much memory one
// metric's data may take; larger metrics of .cubex files are read row by
// row from the file. Submitting sets the budget for data read from now on
// and saves the text typed (empty for the default) through save, as the
// preference. fromCommandLine says that --mem or $CUBEVIEW_MEM set the
// budget of this session.
func MemoryForm(fromCommandLine bool, save func(text string) error) *form.Form {
	def := roughSize(model.DefaultMemoryBudget())
	budget := &form.Field{Kind: form.TextField, Label: "Memory for one metric", Placeholder: "default: " + def, Validate: checkBudget}
	if model.MemoryBudgetSet() {
		budget.Text = model.FormatSize(model.MemoryBudget())
	}
	note := "A metric whose data take more is read row by row from its .cubex file.\n" +
		"Empty: the default, here " + def + ": " + model.DefaultBudgetRule + ".\n" +
		"Applies to data read from now on."
	if fromCommandLine {
		note += "\nThis session was started with --mem or $CUBEVIEW_MEM, which win over the\nsaved preference in later sessions too."
	}
	f := &form.Form{Title: "Memory", Confirm: "Save", Fields: []*form.Field{budget, form.Note(note)}, Focus: budget}
	f.Submit = func() error {
		s := strings.TrimSpace(budget.Text)
		var n int64
		if s != "" {
			n, _ = model.ParseSize(s) // checked by checkBudget
		}
		model.SetMemoryBudget(n)
		if err := save(s); err != nil {
			return fmt.Errorf("saving the preference: %w", err)
		}
		return nil
	}
	return f
}

// checkBudget accepts a size such as 512M or 2G, or nothing (the default).
func checkBudget(s string) error {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	n, err := model.ParseSize(s)
	if err == nil && n == 0 {
		err = fmt.Errorf("%q is no memory at all", s)
	}
	return err
}

// roughSize writes n bytes to a tenth of a G or M, for reading.
func roughSize(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1fG", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.1fM", float64(n)/(1<<20))
}

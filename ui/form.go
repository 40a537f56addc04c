package ui

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"cubeview/form"
)

// showForm shows f in a dialog over parent: its fields as widgets, Cancel
// and f.Confirm. The widgets mirror the fields: a change by the user sets
// the field and the form, and then every widget shows its field again.
// Confirming (also Enter in a one-line text field) runs f.Confirmed and
// passes its error to showErr; while a field is invalid, the dialog
// stays open with the problems under the fields instead.
func showForm(parent fyne.Window, f *form.Form, showErr func(error)) {
	var d *dialog.ConfirmDialog
	content, focus := formContent(f, func() { d.Confirm() })
	content = fitHeight(content, parent.Canvas().Size().Height)
	d = dialog.NewCustomConfirm(f.Title, f.Confirm, "Cancel", content, func(ok bool) {
		if !ok {
			return
		}
		if f.Check() != nil {
			f.Redraw()
			d.Show()
			return
		}
		if err := f.Confirmed(); err != nil {
			showErr(err)
		}
	}, parent)
	f.Close = d.Hide
	var width float32
	for _, x := range f.Fields {
		width = max(width, x.Width)
	}
	d.Resize(fyne.NewSize(width, 0).Max(d.MinSize()))
	d.Show()
	if focus != nil {
		parent.Canvas().Focus(focus)
	}
}

// fitHeight returns content, scrolling vertically when it is taller than
// most of a window of height h: a dialog does not scroll by itself, and a
// form with many fields (Scaling over many experiments) would push its
// buttons off the window.
func fitHeight(content fyne.CanvasObject, h float32) fyne.CanvasObject {
	limit := 0.75 * h
	if need := content.MinSize(); limit <= 0 || need.Height <= limit {
		return content
	}
	s := container.NewVScroll(content)
	s.SetMinSize(fyne.NewSize(content.MinSize().Width, limit))
	return s
}

// formContent returns the widgets of f and the one to focus first. Fields
// with a label, check boxes and choices line up in a two-column grid;
// notes and lists without a label take the whole width.
func formContent(f *form.Form, confirm func()) (fyne.CanvasObject, fyne.Focusable) {
	var syncs []func()
	syncing := false
	syncAll := func() {
		syncing = true
		for _, s := range syncs {
			s()
		}
		syncing = false
	}
	// changed runs a user's change unless it echoes a sync.
	changed := func(set func()) {
		if !syncing {
			set()
			syncAll()
		}
	}
	box := container.NewVBox()
	var grid *widget.Form
	var focus fyne.Focusable
	for _, x := range f.Fields {
		obj, sync := fieldWidget(f, x, changed, confirm)
		syncs = append(syncs, sync)
		if x == f.Focus {
			focus, _ = obj.(fyne.Focusable)
		}
		if x.Button != "" {
			var buttons fyne.CanvasObject = widget.NewButton(x.Button, x.Action)
			if len(x.More) > 0 {
				// Side by side beside a line, stacked beside a taller field.
				box := container.NewHBox(buttons)
				if x.Lines > 1 {
					box = container.NewVBox(buttons)
				}
				for _, b := range x.More {
					box.Add(widget.NewButton(b.Text, b.Action))
				}
				buttons = box
			}
			obj = container.NewBorder(nil, nil, nil, buttons, obj)
		}
		if x.Kind == form.TextField || x.Kind == form.ComboField || x.Kind == form.ChoiceField || x.Kind == form.RadioField {
			problem := widget.NewLabel("")
			problem.Importance = widget.DangerImportance
			problem.TextStyle.Monospace = x.Monospace
			syncs = append(syncs, func() {
				problem.SetText(x.Problem)
				if x.Problem == "" {
					problem.Hide()
				} else {
					problem.Show()
				}
			})
			obj = container.NewVBox(obj, problem)
		}
		if (x.Kind == form.NoteField || x.Kind == form.ListField) && x.Label == "" {
			box.Add(obj)
			grid = nil
			continue
		}
		if grid == nil {
			grid = widget.NewForm()
			box.Add(grid)
		}
		label := x.Label
		if x.Kind == form.CheckField {
			label = ""
		}
		grid.AppendItem(&widget.FormItem{Text: label, Widget: obj, HintText: x.Hint})
	}
	syncAll()
	f.Redraw = syncAll
	return box, focus
}

// fieldWidget returns the widget of field x of f and the function that
// shows x's current value in it.
func fieldWidget(f *form.Form, x *form.Field, changed func(func()), confirm func()) (fyne.CanvasObject, func()) {
	enable := func(w fyne.Disableable) {
		if x.Disabled {
			w.Disable()
		} else {
			w.Enable()
		}
	}
	switch x.Kind {
	case form.TextField:
		e := widget.NewEntry()
		if x.Lines > 1 {
			e = widget.NewMultiLineEntry()
			e.SetMinRowsVisible(x.Lines)
		}
		e.SetPlaceHolder(x.Placeholder)
		e.TextStyle.Monospace = x.Monospace
		e.OnChanged = func(s string) { changed(func() { _ = f.Set(x, s) }) }
		if x.Lines <= 1 {
			e.OnSubmitted = func(string) { confirm() }
		}
		return e, func() {
			if e.Text != x.Text {
				e.SetText(x.Text)
			}
			enable(e)
		}
	case form.ComboField:
		e := widget.NewSelectEntry(nil)
		e.SetPlaceHolder(x.Placeholder)
		e.OnChanged = func(s string) { changed(func() { _ = f.Set(x, s) }) }
		var offered []string
		return e, func() {
			if !slices.Equal(offered, x.Options) {
				offered = slices.Clone(x.Options)
				e.SetOptions(offered)
			}
			if e.Text != x.Text {
				e.SetText(x.Text)
			}
			enable(e)
		}
	case form.ChoiceField:
		s := widget.NewSelect(nil, nil)
		s.OnChanged = func(o string) { changed(func() { _ = f.Set(x, o) }) }
		return s, func() {
			if x.Placeholder != "" && s.PlaceHolder != x.Placeholder {
				s.PlaceHolder = x.Placeholder
				s.Refresh()
			}
			if !slices.Equal(s.Options, x.Options) {
				s.SetOptions(slices.Clone(x.Options))
			}
			if s.Selected != x.Text {
				s.SetSelected(x.Text)
			}
			enable(s)
		}
	case form.RadioField:
		r := widget.NewRadioGroup(slices.Clone(x.Options), nil)
		r.Horizontal, r.Required = true, true
		r.OnChanged = func(o string) { changed(func() { _ = f.Set(x, o) }) }
		return r, func() {
			if r.Selected != x.Text {
				r.SetSelected(x.Text)
			}
			enable(r)
		}
	case form.CheckField:
		c := widget.NewCheck(x.Label, nil)
		c.OnChanged = func(on bool) { changed(func() { f.SetOn(x, on) }) }
		return c, func() {
			if c.Checked != x.On {
				c.SetChecked(x.On)
			}
			enable(c)
		}
	case form.ListField:
		return listWidget(f, x, changed)
	}
	l := widget.NewLabel("")
	if x.Wrap {
		l.Wrapping = fyne.TextWrapWord
	}
	l.TextStyle.Monospace = x.Monospace
	return l, func() {
		l.Importance = widget.LowImportance
		if x.Plain {
			l.Importance = widget.MediumImportance
		}
		if x.Warn {
			l.Importance = widget.DangerImportance
		}
		l.SetText(x.Text)
	}
}

// listWidget shows a list field: a check box per option with buttons that
// move it up and down, in a scroll of at most six rows.
func listWidget(f *form.Form, x *form.Field, changed func(func())) (fyne.CanvasObject, func()) {
	box := container.NewVBox()
	scroll := container.NewVScroll(box)
	var shown []string
	var checks []*widget.Check
	sync := func() {
		if shown == nil || !slices.Equal(shown, x.Options) {
			// Room for the options, at most six rows; a list its button
			// fills starts with room for two.
			rows := len(x.Options)
			if rows == 0 && x.Button != "" {
				rows = 2
			}
			scroll.SetMinSize(fyne.NewSize(560, min(float32(rows), 6)*40))
			shown = slices.Clone(x.Options)
			box.Objects, checks = nil, nil
			for i, o := range shown {
				c := widget.NewCheck(o, func(on bool) { changed(func() { f.SetChecked(x, i, on) }) })
				up := widget.NewButtonWithIcon("", theme.MenuDropUpIcon(), func() { changed(func() { f.Move(x, i, -1) }) })
				down := widget.NewButtonWithIcon("", theme.MenuDropDownIcon(), func() { changed(func() { f.Move(x, i, 1) }) })
				if i == 0 {
					up.Disable()
				}
				if i == len(shown)-1 {
					down.Disable()
				}
				checks = append(checks, c)
				box.Add(container.NewBorder(nil, nil, nil, container.NewHBox(up, down), c))
			}
			box.Refresh()
		}
		for i, c := range checks {
			if on := i < len(x.Checked) && x.Checked[i]; c.Checked != on {
				c.SetChecked(on)
			}
		}
	}
	return scroll, sync
}

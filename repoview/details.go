package repoview

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cubeview/internal/printable"
	"cubeview/model"
	"cubeview/repo"
)

// Field is one "name: value" line of a trial's details.
type Field struct{ Name, Value string }

// AttrRow is one attribute of a trial as its details list it.
type AttrRow struct {
	Key, Value string // as stored
	Text       string // "key = value", on one line
	Origin     string // "user", "auto" or "file"
}

// Details are what the window shows of the current trial: its fields,
// the sizes of its dimensions and all its attributes (the file's too).
type Details struct {
	Trial  repo.Trial
	Fields []Field
	Attrs  []AttrRow
}

// Title is the heading of the details: the trial's name, or that no
// trial is selected.
func (d Details) Title() string {
	if d.Trial.ID == 0 {
		return "No trial selected"
	}
	return printable.String(d.Trial.Name)
}

// Line is the attribute as its list shows it: "key = value   (origin)".
func (a AttrRow) Line() string { return a.Text + "   (" + a.Origin + ")" }

// LoadDetails reads trial id's details.
func LoadDetails(ctx context.Context, r *repo.Repo, id int64) (Details, error) {
	t, err := r.Trial(ctx, id)
	if err != nil {
		return Details{}, err
	}
	c, err := r.Counts(ctx, id)
	if err != nil {
		return Details{}, err
	}
	d := Details{Trial: t}
	p := printable.String
	d.Fields = []Field{
		{"trial", strconv.FormatInt(t.ID, 10)},
		{"app", p(t.App)},
		{"experiment", p(t.Experiment)},
		{"name", p(t.Name)},
		{"source", p(t.Source)},
		{"size", byteSize(t.Size)},
		{"sha256", t.SHA256},
		{"format", p(t.Format)},
		{"imported", t.Imported.Local().Format("2006-01-02 15:04:05 MST")},
		{"dimensions", fmt.Sprintf("%d metrics, %d regions, %d call paths, %d locations", c.Metrics, c.Regions, c.Cnodes, c.Locations)},
		{"stored data", byteSize(c.DataBytes)},
		{"reference", repo.RefPrefix + strconv.FormatInt(t.ID, 10)},
	}
	// The user's attributes first, then the automatic ones, then the file's.
	attrs := slices.Clone(t.Attrs)
	slices.SortStableFunc(attrs, func(x, y repo.Attribute) int { return cmp.Compare(y.Origin, x.Origin) })
	for _, a := range attrs {
		d.Attrs = append(d.Attrs, AttrRow{Key: a.Key, Value: a.Value, Text: p(a.Key) + " = " + p(a.Value), Origin: a.Origin.String()})
	}
	return d, nil
}

func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	v, u := float64(n), ""
	for _, s := range []string{"KiB", "MiB", "GiB", "TiB"} {
		v /= unit
		u = s
		if v < unit {
			break
		}
	}
	return fmt.Sprintf("%.1f %s (%d bytes)", v, u, n)
}

// ParseAttr reads "key=value" as the attribute editor takes it.
func ParseAttr(text string) (model.Attr, error) {
	k, v, ok := strings.Cut(text, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return model.Attr{}, fmt.Errorf("%q: want key=value, e.g. procs=64", text)
	}
	return model.Attr{Key: k, Value: strings.TrimSpace(v)}, nil
}

// ParseAttrs reads one key=value per line; empty lines are passed over.
func ParseAttrs(text string) ([]model.Attr, error) {
	var out []model.Attr
	var errs []error
	for i, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		a, err := ParseAttr(line)
		if err != nil {
			errs = append(errs, fmt.Errorf("attributes line %d: %w", i+1, err))
			continue
		}
		out = append(out, a)
	}
	return out, errors.Join(errs...)
}

package repoview

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"cubeview/internal/printable"
	"cubeview/model"
	"cubeview/repo"
)

// ScalingXAttr is the attribute a scaling study of repository trials
// takes x from unless the user chooses another: the process count the
// import filled in.
const ScalingXAttr = "procs"

// MarkedTrials returns the marked trials in marking order.
func (b *Browser) MarkedTrials() []repo.Trial {
	out := make([]repo.Trial, 0, len(b.marked))
	for _, id := range b.marked {
		if t, ok := b.Trial(id); ok {
			out = append(out, t)
		}
	}
	return out
}

// IDFilter returns the filter (of "repo ls --where") that selects exactly
// trials, e.g. to ask for their metrics.
func IDFilter(trials []repo.Trial) string {
	if len(trials) == 0 {
		return "id < 0"
	}
	parts := make([]string, len(trials))
	for i, t := range trials {
		parts[i] = "id = " + strconv.FormatInt(t.ID, 10)
	}
	return strings.Join(parts, " or ")
}

// ScalingAttrs returns the attributes that can be x of a scaling study
// of trials: those that are a positive number in every one of them,
// the process count first, the others sorted.
func ScalingAttrs(trials []repo.Trial) []string {
	if len(trials) == 0 {
		return nil
	}
	var keys []string
	for _, a := range trials[0].Attrs {
		if _, err := ScalingX(trials, a.Key); err == nil && !slices.Contains(keys, a.Key) {
			keys = append(keys, a.Key)
		}
	}
	slices.SortFunc(keys, func(x, y string) int {
		switch {
		case x == y:
			return 0
		case x == ScalingXAttr:
			return -1
		case y == ScalingXAttr:
			return 1
		}
		return strings.Compare(x, y)
	})
	return keys
}

// ScalingX returns each trial's value of the numeric attribute key, the
// x of a scaling study. A trial without it, or with a value that is not a
// positive number, is an error naming the trial.
func ScalingX(trials []repo.Trial, key string) ([]float64, error) {
	if strings.TrimSpace(key) == "" {
		return nil, errors.New("scaling: name the attribute that gives x")
	}
	xs := make([]float64, len(trials))
	for i, t := range trials {
		a, ok := t.Attr(key)
		switch {
		case !ok:
			return nil, fmt.Errorf("scaling: trial %d (%s) has no attribute %s", t.ID, printable.String(t.Name), printable.String(key))
		case !a.IsNumber || !(a.Number > 0):
			return nil, fmt.Errorf("scaling: trial %d (%s): %s = \"%s\" is not a positive number", t.ID, printable.String(t.Name), printable.String(key), printable.String(a.Value))
		}
		xs[i] = a.Number
	}
	return xs, nil
}

// ScalingPreview says which trial is at which x, for the dialog.
func ScalingPreview(trials []repo.Trial, key string) string {
	xs, err := ScalingX(trials, key)
	if err != nil {
		return err.Error()
	}
	parts := make([]string, len(trials))
	for i, t := range trials {
		parts[i] = fmt.Sprintf("#%d %s: %s", t.ID, printable.String(t.Name), strconv.FormatFloat(xs[i], 'g', -1, 64))
	}
	return "x = " + printable.String(key) + " — " + strings.Join(parts, ", ")
}

// ScalingDerived reads the derived metric a scaling study of repository
// trials may define ("tpv = time / visits", as "cubeview derive" takes
// it); nil when text is blank.
func ScalingDerived(text string) (*model.DerivedMetric, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	name, f, err := model.ParseDefinition(text)
	if err != nil {
		return nil, fmt.Errorf("scaling: %w", err)
	}
	return &model.DerivedMetric{UniqName: name, Formula: f}, nil
}

// WithScalingDerived returns e with the derived metric d added (e itself
// when d is nil), naming the trial in an error.
func WithScalingDerived(e *model.Experiment, d *model.DerivedMetric, t repo.Trial) (*model.Experiment, error) {
	if d == nil {
		return e, nil
	}
	x, err := e.WithDerived(*d)
	if err != nil {
		return nil, fmt.Errorf("scaling: trial %d (%s): %w", t.ID, printable.String(t.Name), err)
	}
	return x, nil
}

// CheckScalingDerived reports a metric that d's formula names but none of
// the trials stores (names: the metrics the trials store), before any
// trial is read.
func CheckScalingDerived(d *model.DerivedMetric, names []string) error {
	if d == nil {
		return nil
	}
	for _, n := range d.Formula.Metrics() {
		if !slices.Contains(names, n) {
			return fmt.Errorf("scaling: derived metric %s: the marked trials have no metric %s", printable.String(d.UniqName), printable.String(n))
		}
	}
	return nil
}

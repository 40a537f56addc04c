package dialogform

import (
	"slices"

	"cubeview/document"
	"cubeview/form"
	"cubeview/model"
	"cubeview/view"
)

// MetricChoice is a form's choice of one metric among those of some
// experiments: the field shows display names (metricChoices), the choice
// stands for a unique name.
type MetricChoice struct {
	Field *form.Field
	uniq  []string // in the order of Field.Options
}

// NewMetricChoice returns a choice field labelled "Metric" with nothing
// offered yet.
func NewMetricChoice() *MetricChoice {
	return &MetricChoice{Field: &form.Field{Kind: form.ChoiceField, Label: "Metric"}}
}

// Offer lists the metrics with values of each experiment in turn (nil
// ones are skipped), keeping the chosen one when it is still there, else
// choosing the first.
func (c *MetricChoice) offer(exps ...*model.Experiment) {
	was := c.Metric()
	c.uniq, c.Field.Options = metricChoices(exps...)
	c.Field.Text = ""
	if !c.Set(was) && len(c.uniq) > 0 {
		c.Field.Text = c.Field.Options[0]
	}
}

// OfferDocs offers the metrics of docs (nil ones are skipped).
func (c *MetricChoice) OfferDocs(docs ...*document.Doc) {
	exps := make([]*model.Experiment, len(docs))
	for i, d := range docs {
		if d != nil {
			exps[i] = d.Exp
		}
	}
	c.offer(exps...)
}

// Metric returns the unique name of the chosen metric, "" when none.
func (c *MetricChoice) Metric() string {
	if i := c.Field.Index(); i >= 0 && i < len(c.uniq) {
		return c.uniq[i]
	}
	return ""
}

// Set chooses the metric uniq; false when it is not offered.
func (c *MetricChoice) Set(uniq string) bool {
	i := slices.Index(c.uniq, uniq)
	if i < 0 {
		return false
	}
	c.Field.Text = c.Field.Options[i]
	return true
}

// Uniq returns the unique names offered, in the order of the options.
func (c *MetricChoice) Uniq() []string { return slices.Clone(c.uniq) }

// SelectedMetric returns the unique name of the metric selected in v's
// metric pane, "" when none is.
func SelectedMetric(v *view.View) string {
	if n := v.Selected(view.MetricPane); n.Kind == view.MetricNode {
		return v.Experiment().Metrics[n.Index].UniqName
	}
	return ""
}

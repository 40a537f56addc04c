package analysisview

import "cubeview/form"

// followOperands finishes a form that compares the experiments chosen in
// fields a and b (Where did it change…, Compare groups of runs…): a change
// of either offers the metrics of the experiments now chosen, and Submit
// hands the request the form describes to run, or says why there is none.
func followOperands[R any](f *form.Form, a, b *form.Field, offerMetrics func(), request func() (R, error), run func(R)) {
	f.Changed = func(x *form.Field) {
		if x == a || x == b {
			offerMetrics()
		}
	}
	f.Submit = func() error {
		r, err := request()
		if err != nil {
			return err
		}
		run(r)
		return nil
	}
}

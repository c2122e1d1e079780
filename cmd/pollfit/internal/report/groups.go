package report

import (
	"fmt"

	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
)

// AddGroups puts the study s of a log split by the column by into r:
// the summary's table (SummariseSegments) and, after the pictures of the
// whole log, each value's own pictures, drawn from the value's own study
// as they are for the whole log (density, survival, hazard, lags, items
// one by one and the batch phase; no frontier: a value's budget is its
// share, in the table), headed "method card: …". A value that follows
// the one schedule has no study of its own and no pictures; a sentence
// of the summary's table says so. Each value's density caveats join r's
// warnings, named by the value.
func AddGroups(r *Report, by string, s *fit.GroupStudy) {
	r.Summary.Segments = SummariseGroups(by, s)
	for i, f := range s.Groups {
		if f.Fallback || f.Study == nil || f.Study.FitOn == nil || f.Study.HeldOut == nil {
			continue
		}
		name := by + " " + export.DSLValue(f.Value)
		g := &builder{r: &Report{}, study: f.Study, train: f.Study.FitOn.Items, test: f.Study.HeldOut.Items, group: true}
		g.estimate()
		g.rows()
		for _, w := range g.r.Warnings {
			r.Warnings = append(r.Warnings, name+": "+w)
		}
		for _, sec := range g.sections() {
			sec.ID = fmt.Sprintf("g%d-%s", i+1, sec.ID)
			sec.Title = name + ": " + sec.Title
			r.Sections = append(r.Sections, sec)
		}
	}
}

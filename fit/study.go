package fit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Baseline is a schedule to compare a fit with, such as the one a team
// runs today.
type Baseline struct {
	Name     string
	Schedule *schedule.Schedule
}

// StudyOptions are the settings of Study. The zero value of every field
// is its documented default; a budget (Options.Budget) or a baseline
// must be given.
type StudyOptions struct {
	// Options are the fit's settings. Budget may be left empty when
	// Baselines are given: the first baseline's cost on the fitting
	// items is the budget. Horizon is the give-up age H: zero chooses
	// the default (see DefaultGiveUp, capped at the longest baseline's
	// end, rounded up to a whole second, when every baseline stops), Never keeps a schedule that never
	// stops. StuckAsks zero derives the cap: the baseline's own stuck
	// cost when its cost is the budget, else DefaultStuckFactor × the
	// requests budget (or the requests a price buys).
	Options
	// GiveUpShare is the share of final answers that land by the
	// default give-up age (default DefaultGiveUpShare).
	GiveUpShare float64
	// Holdout is the share of a sample Study holds out, by a random
	// split of seed Seed, to measure on (0: fit and measure on the whole
	// sample). A split made already is given to Study as its held-out
	// part (HeldOut), which carries its own share and seed.
	Holdout float64
	Seed    uint64
	// Rough fits the exact optimum (and Exact schedules) to the raw
	// fitting items rather than their smoothed density, which they
	// overfit.
	Rough bool
	// Bandwidth is the smoothing kernel's standard deviation on the
	// natural-log age axis (see estimate.DensityOptions). Zero chooses
	// it by cross-validation on the fitting items, at the budget (see
	// Smoothing).
	Bandwidth float64
	// NoDeadlines, NoBatches and NoSignals leave out the shapes: a burst
	// after each deadline, wall-clock aligned asks after batch
	// boundaries, reset on signal.
	NoDeadlines, NoBatches, NoSignals bool
	// Baselines are replayed next to the fit, and the fit is repeated
	// at each one's cost.
	Baselines []Baseline
	// AsksBy are the ages at which each row counts the asks to an item
	// that never answers.
	AsksBy []time.Duration
	// Bootstrap is the number of resamples of the held-out items for 95%
	// intervals on the fitted row, the baselines and the comparisons (0:
	// none; pollfit fit runs 200).
	Bootstrap int
	// Family, "exponential" or "grpc", also fits the best member of that
	// retry library's family at the budget (see LibraryFit).
	Family string
	// GRPCClient names the client whose retry timing the "grpc" family
	// models, one of backoff.GRPCClients ("" for go).
	GRPCClient string
	// NoLimit, when set, says why the limit cannot be computed on the
	// sample (its ages are spread over interval-censored answers, so
	// hindsight on them would only be hindsight on the assumed density):
	// the study then leaves Limit unmeasured (NaN figures, name
	// "limit") with NoLimit as its LimitNote, and a frontier's limit
	// column is NaN.
	NoLimit string
	// Frontier also makes the frontier of the fit at ReportBudgets
	// (StudyResult.Frontier): each budget fitted beside the study's own
	// fit, at once with the study's own fit and the rest of the study
	// (see startFrontier). Under StudyGroups only the shared
	// schedule's study makes it.
	Frontier bool
	// Progress, when set, is told each stage of the work as it starts
	// ("fitting", "the limit", ..., "budget 3 of 20" in a frontier), from
	// the calling goroutine; StudyGroups tells it the one schedule's
	// stages and how many values' fits are done, from the fits'
	// goroutines, one call at a time.
	Progress func(stage string)
	// lean, set by StudyGroups without GroupOptions.Full, leaves out
	// what no figure of a study by group reads but its report: the main
	// fit's exact optimum on the smoothed density (and the smoothing's
	// cross-validation), unless the schedule is placed over it (see
	// smoothingShips), and the exact (fit) row.
	lean bool
}

// DefaultStuckFactor times the requests budget is the default stuck cap.
const DefaultStuckFactor = 8

// Row is one schedule measured: on the held-out items (or the model),
// to the give-up age.
type Row struct {
	Metrics
	// Stuck is the stuck cost: the asks by the give-up age to an item
	// that never answers (for a schedule that never stops, by the
	// age it was replayed to).
	Stuck float64
	// LagCI, P95CI and RequestsCI are 95% bootstrap intervals of the mean
	// lag, its 95th percentile and the requests per item (zero when no
	// bootstrap was run; see StudyOptions.Bootstrap).
	LagCI, P95CI, RequestsCI Interval
	// Missed is the share of final answers that come after the give-up
	// age, or after the schedule's last ask.
	MissedShare float64
}

// StudyResult is everything a fit study finds, rendered by pollfit's
// text, JSON, plots and report alike.
type StudyResult struct {
	// Schedule is the schedule to ship.
	Schedule *schedule.Schedule
	// Fit is the main fit on the fitting items (or the model).
	Fit *Result
	// Budget is what the fit spends; BudgetFrom names the baseline whose
	// cost it is, if any.
	Budget     Budget
	BudgetFrom string
	Objective  Objective
	// GiveUp is the give-up age every row is replayed and costed to;
	// Never reports that the schedule never stops (GiveUp.Age is then
	// the age the log's last answer is seen by).
	GiveUp GiveUp
	Never  bool
	// StuckCap caps Fitted.Stuck, for StuckCapReason.
	StuckCap       int
	StuckCapReason string
	// Fitted is the schedule to ship, measured.
	Fitted Row
	// Limit is the hindsight optimum: the exact optimum computed on the
	// very items the rows are measured on, at Fitted's cost there. No
	// age-based schedule that sees every answer by the give-up age beats
	// it at that cost. LimitNote says what it covers.
	Limit     Row
	LimitNote string
	// ExactFit is the exact optimum fitted on the fitting items (their
	// smoothed density) and replayed on the held-out ones; it may lose
	// to the clauses of Fitted. Nil for a model.
	ExactFit *Row
	// Continuous is the continuous-rate schedule (a model only).
	Continuous *Row
	// Baselines compares each baseline with the fit at its cost.
	Baselines []Comparison
	// Decision is what shipping Schedule changes against today's, the
	// first baseline, on the held-out items; nil without a baseline.
	Decision *Decision
	// Shapes is what the estimators found on the fitting items.
	Shapes *Shapes
	// FitOn and HeldOut are the samples fitted on and measured on (the
	// same sample when nothing was held out); nil for a model.
	FitOn, HeldOut *Sample
	Holdout        float64
	Seed           uint64
	// Survival is the Kaplan–Meier estimate of the fitting items, and
	// Density their smoothed density (nil with Rough), smoothed as
	// Smoothing says; all nil for a model.
	Survival  *estimate.Survival
	Density   *estimate.Dist
	Smoothing *Smoothing
	// Model is the distribution fitted to, for a model.
	Model Distribution
	// Bootstrap is the number of resamples behind the intervals (0: none).
	Bootstrap int
	// Library is the best member of StudyOptions.Family, or nil.
	Library *LibraryFit
	// Notes are caveats worth telling the user.
	Notes []string
	// Frontier is the frontier of the fit at ReportBudgets (the one
	// pollfit report draws), with StudyOptions.Frontier; else nil.
	Frontier []FrontierPoint
}

// HeldOut is the held-out part of a sample split already, such as a
// sketch's hash split (see estimate/source), with the share and seed of
// the split that made it.
type HeldOut struct {
	Sample  Sample
	Holdout float64
	Seed    uint64
}

// Study fits a schedule to fitOn and measures it, the limit and each
// baseline on the held-out items, all to one give-up age: the pipeline
// of pollfit fit and pollfit report. With heldOut nil, Study holds out
// opt.Holdout of fitOn by a random split of seed opt.Seed; else fitOn
// and heldOut are a split made already, whose share and seed (heldOut's)
// the result reports and the bootstrap's resamples are seeded with. It
// stops soon after ctx is done, returning ctx's error (context.Canceled
// or context.DeadlineExceeded) wrapped with the stage it stopped in.
func Study(ctx context.Context, fitOn Sample, heldOut *HeldOut, opt StudyOptions) (*StudyResult, error) {
	st, err := newStudy(ctx, fitOn, heldOut, nil, opt)
	if err != nil {
		return nil, err
	}
	return st.run()
}

// StudyModel is Study on a settle-time model: every figure is an exact
// integral, and there is nothing to hold out.
func StudyModel(ctx context.Context, d Distribution, opt StudyOptions) (*StudyResult, error) {
	st, err := newStudy(ctx, Sample{}, nil, d, opt)
	if err != nil {
		return nil, err
	}
	return st.run()
}

// newStudy splits the sample, unless heldOut is its held-out part
// already, and estimates what the fits need.
func newStudy(ctx context.Context, smp Sample, heldOut *HeldOut, model Distribution, opt StudyOptions) (*study, error) {
	if heldOut != nil {
		opt.Holdout, opt.Seed = heldOut.Holdout, heldOut.Seed // the study's own copy
	}
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if model != nil {
		return &study{ctx: ctx, opt: opt, model: model, res: &StudyResult{Objective: opt.Objective, Model: model}}, nil
	}
	if smp.Len() == 0 {
		return nil, errors.New("no items")
	}
	st := &study{ctx: ctx, opt: opt, res: &StudyResult{Objective: opt.Objective, Holdout: opt.Holdout, Seed: opt.Seed}}
	train, test := smp, Sample{}
	if heldOut != nil {
		test = heldOut.Sample // split already
	} else {
		train, test = SplitSample(smp, opt.Holdout, opt.Seed)
	}
	if train.Len() == 0 || test.Len() == 0 {
		if opt.Holdout > 0 {
			st.note(noHoldoutNote)
		}
		train, test, st.res.Holdout = smp, smp, 0
	}
	st.train, st.test = train, test
	st.laws = newLawCache(train)
	st.res.FitOn, st.res.HeldOut = samplesOf(train, test)
	st.km = sampleKM(train)
	st.smoother = sync.OnceValue(func() *estimate.Smoother { return estimate.NewSmoother(st.km, estimate.DensityOptions{}) })
	st.cvHalves = sync.OnceValue(func() *cvSplit { return newCVSplit(train, opt.Seed) })
	st.densities = &onceMap[float64, *estimate.Dist]{}
	st.res.Survival = st.km
	if smp.Len() > 0 {
		st.startShapes()
	}
	if !opt.Rough {
		st.smoothDensity()
	}
	return st, nil
}

// samplesOf are a study's samples as its result keeps them: copies of
// their headers of their own, not pointers into the study, which would
// keep the whole study (its caches, the cross-validation's halves) alive
// as long as the result.
func samplesOf(train, test Sample) (fitOn, heldOut *Sample) { return &train, &test }

// noHoldoutNote is a study's note when its items are too few to split.
const noHoldoutNote = "too few items to hold any out; measuring on the fitting items"

// study carries one Study's state.
type study struct {
	ctx         context.Context // stops the study when done
	opt         StudyOptions
	res         *StudyResult
	model       Distribution
	train, test Sample
	laws        *lawCache // of train, for every fit
	km          *estimate.Survival
	// smoother is km made ready to smooth, with the deadlines the density
	// keeps apart (the deadline shapes' too): made once, by whichever
	// needs it first.
	smoother func() *estimate.Smoother
	// cvHalves are the smoothing's cross-validation halves, made once by
	// the first cross-validation (nil: too few items).
	cvHalves func() *cvSplit
	// densities are the smoother's densities by bandwidth (density).
	densities *onceMap[float64, *estimate.Dist]
	horizon   time.Duration // the Options.Horizon each fit gets
	isj       float64       // the density estimate's own bandwidth
	smoothed  bool          // the bandwidth is chosen
	// point is the study of a frontier point or of a point of a group's
	// curve, whose fits' smoothed optima and continuous rates nothing
	// reads but where they ship (see isMain).
	point bool
	// shapes is closed when the estimators started by startShapes are
	// done, with their findings in found.
	shapes chan struct{}
	found  *Shapes
}

func (st *study) note(format string, args ...any) {
	st.res.Notes = append(st.res.Notes, fmt.Sprintf(format, args...))
}

// stopped is stopped(st.ctx, what).
func (st *study) stopped(what string) error { return stopped(st.ctx, what) }

func (st *study) run() (*StudyResult, error) {
	r := st.res
	if err := st.stopped("study"); err != nil {
		return nil, err
	}
	if err := st.giveUp(); err != nil {
		return nil, err
	}
	if err := st.budget(); err != nil {
		return nil, err
	}
	if err := st.stuckCap(); err != nil {
		return nil, err
	}
	front := st.startFrontier()
	defer front.stop()
	st.stage("fitting")
	res, err := st.fit(r.Budget, r.StuckCap)
	if err != nil {
		return nil, err
	}
	r.Fit, r.Schedule = res, res.Schedule
	st.stage("measuring")
	if r.Fitted, err = st.measure("fitted", res.Schedule); err != nil {
		return nil, err
	}
	if err := st.rows(); err != nil {
		return nil, err
	}
	st.stage("the limit")
	if err := st.stopped("limit"); err != nil {
		return nil, err
	}
	lim := st.startLimit()
	err = st.afterLimit()
	if lerr := <-lim; lerr != nil {
		return nil, lerr // what the limit found first, as run in turn
	}
	if err != nil {
		return nil, err
	}
	if r.Frontier, err = front.wait(); err != nil {
		return nil, err
	}
	return r, nil
}

// startLimit computes the limit on its own goroutine, beside the
// stages after it (afterLimit), which neither read nor write what it
// sets (Limit, LimitNote); the channel gives its error, once.
func (st *study) startLimit() <-chan error {
	done := make(chan error, 1)
	r := st.res
	if st.opt.NoLimit != "" {
		r.Limit, r.LimitNote = noLimitRow(), st.opt.NoLimit
		done <- nil
		return done
	}
	go func() {
		if err := st.limit(); err != nil {
			done <- fmt.Errorf("limit: %w", err)
			return
		}
		done <- nil
	}()
	return done
}

// afterLimit compares the baselines, fits the library's families and
// runs the bootstrap.
func (st *study) afterLimit() error {
	st.stage("the baselines")
	if err := st.compare(); err != nil {
		return err
	}
	if err := st.library(); err != nil {
		return err
	}
	st.stage("the bootstrap")
	return st.bootstrap()
}

// stage tells StudyOptions.Progress that a stage starts.
func (st *study) stage(name string) {
	if st.opt.Progress != nil {
		st.opt.Progress(name)
	}
}

// answered is the share of all items with a final answer by age t, its
// limit, and whose answers they are: from the model, or the
// Kaplan–Meier estimate of the fitting items (the give-up age is chosen
// without the held-out items).
func (st *study) answered() (func(t float64) float64, float64, string) {
	if st.model != nil {
		return st.model.CDF, st.model.CDF(math.MaxFloat64), "the model"
	}
	return func(t float64) float64 { return 1 - st.km.At(t) }, 1 - st.km.Never(), "the fitting items"
}

// giveUp fixes the give-up age.
func (st *study) giveUp() error {
	o, r := st.opt, st.res
	switch {
	case o.Horizon == Never:
		r.Never = true
		r.GiveUp = GiveUp{Reason: "never stops: Horizon Never"}
		return nil
	case o.Budget.Kind() == BudgetAsksBy:
		r.GiveUp = GiveUp{Age: o.Budget.AsksByAge, Reason: "the asks-by budget's age"}
	case o.Horizon > 0:
		r.GiveUp = GiveUp{Age: o.Horizon, Reason: "the horizon given"}
		st.horizon = o.Horizon
	default:
		ans, total, of := st.answered()
		g := DefaultGiveUp(ans, total, o.GiveUpShare, of)
		r.GiveUp = capGiveUp(g, o.Baselines, ans, total)
		st.horizon = r.GiveUp.Age
	}
	if ans, total, of := st.answered(); total > 0 && r.GiveUp.Share == 0 {
		r.GiveUp.Share, r.GiveUp.Of = ans(r.GiveUp.Age.Seconds())/total, of
	}
	return nil
}

// Package estimate turns settle-time logs into the distribution of the
// age at which items get their final answer: survival, quantiles, a
// smoothed density and hazard, deadlines and batch periodicity.
//
// # Items
//
// An Item is one row of a log: its Age in seconds, whether that age is a
// final answer (Settled or Failed: a failure is what a poller waits for
// too) or a censoring age (Pending: the item was still waiting when last
// seen), and its creation time when known. Package estimate/logs reads
// CSV and Parquet logs and histograms into items, and writes logs;
// estimate is the statistics and links no file format. To fit a
// schedule, start at package estimate/source: its Read opens logs and
// sketches and returns the samples fit.Study takes ("Start here").
//
// # Memory flat in the input
//
// An Accumulator reduces any number of items, Add by Add, to fixed-size
// histograms (about 8 MB in all):
//
//   - final and censoring ages in 1000 log-spaced bins a decade from 1 ms
//     to 10¹⁰ s (each 0.23% wide), plus a bin below 1 ms and one above.
//     Each bin keeps the weight and the weighted sum of its ages and
//     whether they all were one age, so a bin whose items share an age
//     (a timeout at exactly 60 s, ages in whole seconds) reproduces it
//     exactly and any other bin stands at its mean age;
//   - the wall-clock times of day (UTC) of the final answers of items
//     with a known creation time, in 100 ms bins, allocated on the first
//     such item: batch boundaries are wall-clock, so candidate periods
//     are divisors of a day and a day's fold holds them all;
//   - the granularity of the final ages and settle timestamps: whether
//     all are whole minutes, whole seconds or multiples of 100 ms.
//
// Accumulator.Survival then gives the Kaplan–Meier estimate, and
// Periodicity reads the time-of-day histogram. Merge combines
// accumulators filled in parallel.
//
// # Survival and quantiles
//
// KaplanMeier(t, final, w) estimates S(t) = P(no final answer by age t)
// with right-censoring, on plain slices (w nil for unit weights). At tied
// ages final answers come before censorings. Greenwood's variance gives
// pointwise bands (Survival.Band) on the log scale by default, as R's
// survfit (conf.type "log"), or log-log or plain; QuantileBand reads a
// quantile's interval off them as quantile.survfit does. Survival.Quantile
// follows R's quantile.survfit: the first age where 1 − S reaches p, and
// where the curve is flat at exactly 1 − p, the middle of the flat
// stretch (up to the last observed age at the end of the curve). Where
// too many items are still pending for S to reach 1 − p, the quantile is
// NaN, "not reached". S beyond the last observed age is unknown; Never
// is S there, the share the data leave unanswered.
//
// From an Accumulator, ages are known to their bin (0.23%), so
// quantiles and S are exact when every bin holds one age and otherwise
// within a bin's width.
//
// # Density and hazard
//
// Density smooths the Kaplan–Meier jumps, so censoring is accounted for,
// with a Gaussian kernel on the log-age axis: binned onto a regular grid
// and convolved by FFT, then mapped back to ages with the Jacobian 1/t.
// The log axis keeps the density on t > 0 and gives the kernel a width
// proportional to the age, as settle times spread. The bandwidth is
// Botev's improved Sheather–Jones (ISJ), computed on the same binned data
// by DCT; when its fixed-point equation has no root in the bracket (small
// or pathological samples) Density falls back to Silverman's rule and
// says so in Dist.Warnings. Either is floored at the ages' resolution
// when the ages lie on a grid finer than ISJ's grid resolves (ages
// rounded to the millisecond, a sketch's bins on a large log):
// ResolutionFactor times the median gap between distinct ages on the
// log axis, so the kernel smooths the law, not the comb. To smooth one
// estimate at several
// bandwidths (a cross-validation), NewSmoother does the work that does
// not depend on the bandwidth once (the deadlines, the jumps on the log
// axis) and Smoother.Density smooths at each.
//
// The result, a Dist, keeps three parts apart that together hold
// probability 1:
//
//   - the smooth density, PDF, integrating to the rest;
//   - atoms at deadlines (below), at which CDF jumps, unless
//     DensityOptions.SmoothDeadlines asks to smooth them like the rest;
//   - Never, the mass beyond the last observation, not renormalised
//     away: CDF(t) ≤ 1 − Never for all t.
//
// So ∫PDF + Σ atoms + Never = 1, CDF(t) is non-decreasing and Survival =
// 1 − CDF; Smooth reports whether there are no atoms (PDF = CDF′
// everywhere) and Quantile inverts CDF. Hazard is PDF/Survival. PDF, CDF, Survival and Hazard
// interpolate a precomputed grid in constant time; Grid returns it and
// WriteGrid writes it as CSV (t,f,S,hazard). Modes lists the density's
// prominent modes on the log axis.
//
// Rounded or heavily tied ages are spread back before smoothing: ages in
// whole seconds (or minutes) over ±½ s (or ±30 s), ages with two or more
// answers each on average (items checked every few seconds) over the
// cells halfway to the neighbouring ages. Survival.Resolution records
// the grid found.
//
// # Interval-censored ages
//
// A poller's own log or a latency metric knows an answer's age only to
// lie in an interval, an Interval (Lo, Hi]: after the last ask that saw
// the item pending, at or before the first that saw it final (or in a
// histogram bucket); Hi = +Inf for an item never seen final, Lo == Hi
// for an exact age. NewTurnbull (or IntervalSet.Turnbull, which merges
// equal intervals first) computes the nonparametric maximum-likelihood
// estimate: Turnbull's self-consistent EM on the innermost intervals,
// stopped when the Kuhn–Tucker conditions hold within a tolerance (the
// log-likelihood is then within W·Tol of its maximum), with a cap on
// the steps that is only a safety net and is reported when reached. Its
// Survival puts each interval's mass at its middle, as R's survfit
// does, and agrees with survfit(Surv(left, right, type = "interval2"))
// to 1e-6 and better; Bounds gives the range S may take inside an
// interval, where the data cannot tell. Exact, right-censored and
// interval-censored items mix in one estimate; with only exact and
// right-censored ones it is the Kaplan–Meier estimate.
// IntervalSet.WidestShare says how well the data pin the ages down: the
// width of the widest interval among the narrowest holding a share of
// the answers.
//
// # Deadlines
//
// Deadlines finds sharp spikes at fixed ages, such as a timeout making
// failures land together: a window of ±1% of the age (at least one
// rounding step) that holds at least 5 times what the denser of its two
// flanks (±1% to ±21%) predicts, at least 1% of all items above that,
// and more answers than Poisson chance allows (0.001 over all candidate
// ages). A broad mode spreads into its flanks and the edge of a mode
// fails against its dense side, so neither is a deadline. Where the
// ages' rounding makes the window wider than ±5% of the age (below 10 s
// for whole seconds) no deadline is sought: a timeout and a narrow mode
// look the same there. Share is the spike's Kaplan–Meier mass above the
// background.
//
// # Periodicity
//
// Periodicity looks for final answers clustered just after wall-clock
// boundaries. For each divisor P of a day in [10 s, 1 h] it folds the
// settle times modulo P and applies de Jager's H-test (Z²ₘ over up to 20
// harmonics, p ≈ exp(−0.4 H)), the p-value Šidák-corrected for the number
// of periods tried. Harmonics stop below the Nyquist limit of the
// timestamps' resolution, so whole-second or whole-minute timestamps
// cannot fake a period. Its Share is the mass above the median level of
// the folded histogram, less what noise alone would put there; a period
// needs a Share of at least 5%, so a large log with a tiny, significant
// concentration is not a batch process. The excess must also be
// concentrated on a short arc after the boundary (mean resultant length
// ≥ 0.8) and show in the parts of the day carrying 70% of the traffic,
// so that traffic bursting for an hour or two each day, which folds
// unevenly, is not taken for a batch. A batch every 5 minutes is also
// periodic at 10 minutes and looks periodic at 100 or 150 s; the period
// reported is the smallest qualifying one whose harmonics carry 90% of
// the strong spectral lines found. Phase is the circular mean of the
// excess mass: how long after the boundary answers come.
//
// # Sketches and warehouses
//
// A Sketch is a log's fixed-size summary (see its doc and WriteSketch's
// file format): per part, fit or held out, the settled, failed and
// pending weights by age bin with each bin's sum of ages, least age and
// whether it has seen more than one. Bin 0 holds ages below 1 ms, the
// last bin (130001) ages from 10¹⁰ s on, and an age a in [1 ms, 10¹⁰ s)
// is in bin ⌊log10(a / 1 ms)·10000 + 10⁻⁹⌋ + 1, at most 130000: the
// nudge 10⁻⁹ puts an age on a decade's edge (1 s, 10 s) in the bin it
// starts whatever the last bits of an engine's log10. Sketch.Add adds a
// row; Sketch.AddRun adds a run of them, faster and to the same sketch.
//
// A row is held out by an integer hash that any SQL engine computes in
// signed 64-bit arithmetic. With P = 2³¹ − 1, M = 1103515245 and
// K = 48271, a round mixes a field x (0 ≤ x < P) into h (0 ≤ h < P):
//
//	y = (h·M + x) mod P
//	round(h, x) = ((y·y mod P)·K + y) mod P
//
// (every product is below 2⁶²). Starting from h = seed mod P, the rounds
// mix in, in order, the row's status code (0 pending, 1 settled, 2
// failed, as the row is read: a row without a final answer is pending),
// its creation time in whole milliseconds since 1970 rounded down, mod P
// into [0, P) (0 when the log has no creation times), its age in whole
// microseconds rounded half away from zero, mod P, and 0. The row is
// held out when h < T = ⌈holdout·P⌉, the product in float64; holdout 0
// holds nothing out. The age is the one the reader computes: settled_at
// − created_at, or for a pending row without a settled_at the
// observed-at time − created_at. Rows of timestamps in whole
// microseconds hash alike in every engine; finer timestamps may round
// an age differently.
//
// A weighted row (a histogram bin) is split binomially instead, seeded
// by its hash. SketchSQL writes, for DuckDB, PostgreSQL, BigQuery, Spark,
// ClickHouse and Snowflake, the SELECT whose CSV result is a table's
// sketch, and ReadSketch reads that result as pollfit's own.
//
// A grouped sketch (NewGroupedSketch, AddBy) also keeps one sketch
// per value of a column (at most MaxSketchGroups), each of the same
// split: the value does not enter the hash, so the sketch of all values
// together is the ungrouped sketch of the same rows, and each value's
// is the sketch of its rows alone. Its file (format version 2) has a
// segment column; grouped sketches of the same column merge value by
// value. SQLOptions.By makes SketchSQL group by the column too. The rows
// of a sketch file are SketchRow values (Sketch.Rows, Sketch.AddRow), so
// that package estimate/logs writes and reads the same sketch as Parquet
// without estimate linking a file format.
//
// # The item sample
//
// Bins keep no creation times or signals, which wall-clock aligned asks,
// batch shapes and reset on signal need. So each part of a pollfit
// sketch also keeps an item sample: of its distinct rows (status, age,
// creation time, signal), the Sketch.Sample (DefaultSample, 32768) with
// the least key, the key being the split's hash h above and then the
// row's fields, each row with the number of times it came. Bottom-k is
// deterministic and merges exactly: the least keys of a union are the
// least among the parts' least keys, with the counts of the same row
// added; so sketches of days merge into the month's, and the same rows
// give the same sample in any order. A part with at most Sample distinct
// rows keeps them all, and pollfit then fits and measures on exactly the
// rows the bins hold, each once. Beyond, a log with signals or batches
// is fitted and measured on a uniform sample by hash of Sample rows a
// part, each weighted by the rows it stands for (SketchPart.Sampled).
// In the file the sample follows the bins:
//
//	# pollfit sketch v2 holdout=0.3 seed=1 sample=32768
//	part,kind,bin,age_s,weight,sum_s,mixed
//	...
//	part,status,age_s,created_ns,signal_s,weight
//	fit,settled,9.8123,1793534400123456789,4.5,1
//
// one row a distinct sampled row, in key order, fitting part first: the
// part, the status (settled, failed or pending), the age in seconds, the
// creation time in Unix nanoseconds and the age at the signal in seconds
// (each empty when unknown), and the number of times the row came. The
// hash is computed again on reading. A part's sample is exact when its
// counts add up to the part's count in the bins. About 50 bytes a row:
// 3.3 MB at most. A sketch without sample= in its first line has none;
// a SQL engine's (SketchSQL) never has one: it serves schedules asking
// by age only. In a grouped sketch only the parts of all values
// together keep a sample, not each value's (and the file's segment rows
// come before the sample rows, which have no segment column).
package estimate

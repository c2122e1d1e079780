// Package fit turns a settle-time distribution into a polling schedule
// and measures schedules against logs.
//
// A client waiting for something to finish (a payment to settle, a job
// to complete) asks "done yet?" at the ages of a schedule (package
// fit/schedule). Every schedule trades two costs: how late the client
// notices the answer (lag) and how many times it asks (requests).
//
// # The cost model
//
// One model costs every schedule pollfit fits, replays or compares:
//
//   - A schedule gives up at an age H, the give-up age: it asks nothing
//     after H. Every schedule in a comparison, fitted or baseline, is
//     replayed and costed to the same H.
//   - An answer after H (or after the schedule's last ask) is missed; the
//     missed share is shown beside the lag, which averages over the
//     answers seen.
//   - Every row the study makes asks at H, so sees every answer by H and
//     misses only the answers after it, the same in every row: the
//     fitted schedule, the limit, and each member of the families
//     (fixed interval, backoff, jittered backoff), which asks once more
//     at H when its last ask falls before it. A baseline or strategy
//     given is replayed as written; an answer after its last ask is
//     missed, and --family ranks a library's members as if it waited
//     until H.
//   - An item still pending costs the asks up to min(its censoring age,
//     H). A stuck item, one that never answers, costs every ask up to H:
//     the stuck cost, a second budget (Options.StuckAsks) that the fit
//     honours together with the first.
//   - The default H comes from where the answers land, never from the
//     width of the log's window: the smallest nice age (1, 2, 5, 10, 15,
//     30 × s, min, h, then days) by which 99% of the final answers have
//     landed by the Kaplan–Meier estimate (DefaultGiveUp), capped at the
//     longest baseline's end, rounded up to a whole second, when every
//     baseline stops. Never keeps a
//     schedule that never stops, costed explicitly as it runs.
//
// Study is the pipeline built on it: it splits a sample (Sample: items,
// or the weighted bins of a histogram) into fitting and held-out parts,
// fixes H and the stuck cap, fits, and measures the fitted schedule, the
// limit and each baseline on the held-out part. The limit is the exact
// optimum on those very items under the study's own budget kind: at the
// fitted schedule's requests per item there (a mix of two schedules),
// within the asks of an asks-by or max-attempts budget, or at the price
// within the stuck cap (one schedule each; a Lagrangian bound, labelled
// "a bound, not a schedule", where that programme would be too large).
// No schedule asking by age and at H beats it under that budget;
// Comparison holds each baseline beside the fit at its cost, read only
// between fits whose held-out costs bracket the baseline's, and Decision
// what shipping the fit changes against the first baseline. StudyFrontier sweeps budgets through the same
// steps, so that a frontier at budget B and a fit at B agree; with
// StudyOptions.Frontier, Study makes the frontier of its own fit beside
// it, at the budgets of ReportBudgets (pollfit report's rule), its own
// fit the point at its own budget.
// StudyGroups runs Study once per group (the items of one value of a
// categorical column, such as a payment method) at a requests budget
// shared across groups by Allocate, where the next request buys the
// most lag, and beside them the one schedule for all at the same budget.
//
// # Replay
//
// Replay measures a schedule on a log, exactly:
//
//   - an item whose final answer (success or failure) comes at age t is
//     seen by the first ask at an age a ≥ t (an ask at exactly t sees it),
//     provided a is within the horizon; its lag is a − t and it costs
//     every ask up to and including a;
//   - an item still pending at its censoring age c costs the asks at ages
//     ≤ min(c, horizon) and has no lag;
//   - an item whose answer comes after the schedule's last ask or after
//     the horizon is missed and costs every ask ≤ horizon.
//
// Replay's own horizon defaults to the end of a stopping schedule and,
// for one that never stops, to its first ask at or after the largest
// final age in the log (Study, and pollfit's commands, give it the
// give-up age instead). Ages compare in
// whole nanoseconds, so ties are exact. Lag percentiles are nearest-rank
// over seen items; requests per item average over all items. Replay
// counts asks with the schedule's Timeline, by binary search over its
// clauses rather than a loop over asks, so a million items replay in tens
// of milliseconds.
//
// A schedule with "reset on signal" asks at the moment a signal reaches
// the client (Item.Signal) and restarts its age-based clauses from there;
// a signal after the answer landed makes the client see it at once.
// Wall-clock aligned asks are placed from each item's creation time.
//
// # The optimiser
//
// Given settle times (a log, or a model such as
// lognormal(median=12s, sigma=0.5), see estimate.ParseModel) and one
// budget — mean requests per item, asks by an age to an item that never
// settles, attempts up to a horizon, or a price per request — Fit and
// Optimal return the schedule to ship (at most Options.Clauses clauses
// of nice intervals, optionally led by one "at" clause), the exact
// discrete optimum it is measured against, and for smooth densities the
// continuous-rate schedule (rate ∝ √(f/S) for a requests budget, ∝ √f
// for asks-by; cube roots for the RMS objective), each with the figures
// Replay would measure.
//
// The lag of an answer in (a_{j−1}, a_j] is a_j − s, so the mean lag is
// Σ_j ∫ (a_j − s) dF(s); the ask at a_j costs the share still waiting at
// a_{j−1}. The exact optimum is a shortest path over candidate ages,
// refined by zooming in around the asks found; Shoot is Barlow and
// Proschan's recursion F(a_j) − F(a_{j−1}) = f(a_j)(a_{j+1} − a_j + P)
// for smooth densities, and the two agree to 1e-4 on Weibull and gamma
// laws. A budget is met by searching the price per request around the
// bracketing prices, since a price alone cannot reach every budget of a
// discrete schedule.
//
// The quantiser chooses the clauses by dynamic programming over clause
// boundaries and intervals from a nice set (1, 2, 5, 10, 15 and 30 ms,
// s or min, plus 100, 200, 500 ms and hours), not by rounding the
// optimum.
//
// Fit and FitSample fit the items as given, and the exact optimum fitted
// to raw items overfits; Study fits it to the smoothed density of the
// fitting items instead (estimate.Density; StudyOptions.Rough keeps the
// raw items) and measures on held-out items (StudyOptions.Holdout,
// SplitSample). The kernel's bandwidth is chosen by how the exact fit
// generalises, not by the density estimate's own criterion: the fitting
// items are split in two halves, each half's exact fit at the study's
// budget is scored on the other half (its objective plus the price per
// request times its requests) at the density estimate's own bandwidth
// (Botev's ISJ) times 0.5, 0.71, 1, 1.41 and 2, and another bandwidth
// than ISJ's is taken only when it beats it by two standard errors of
// the items' paired differences. With fewer than 1,000 fitting items
// ISJ's stands, and StudyOptions.Bandwidth, when set, is used as given;
// StudyResult.Smoothing says which. StudyFrontier sweeps budgets through
// the same steps, against the limit and the fixed-interval, backoff and
// jittered backoff schedules that spend each budget.
//
// # Shapes
//
// Some logs have structure the clauses of constant interval cannot use.
// WithDeadlines adds a burst of explicit asks just after a deadline (a
// spike of answers at a timeout, estimate.Deadlines), spliced into the
// schedule as an "at" clause; WithBatches adds wall-clock aligned asks
// just after each batch boundary (estimate.Periodicity); WithSignals
// adds "reset on signal". The first two fit the age-based part again at
// what the budget leaves once the shape has spent its share, and each is
// kept only when it lowers the mean lag on the fitting items at the
// budget.
//
// # Errors
//
// A setting refused is an *OptionError naming the Go field (Field
// "Holdout", "StuckAsks", "Budget.AsksBy"); StudyOptions.Validate checks
// the settings alone, before any data is read, and Study applies it
// first. A budget no schedule meets within the limits is an
// *InfeasibleError whose Change lists the fields to change. Both survive
// wrapping (errors.As), and their text names fields, never a command's
// flags: estimate and export refuse their options with the same
// OptionError type.
package fit

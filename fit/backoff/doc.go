// Package backoff is the retry literature as baselines for pollfit: the
// strategies clients use to wait between attempts, written as specs,
// turned into polling schedules (deterministic ones) or realisations
// (randomised ones), and Perl's Algorithm::Backoff reproduced rule for
// rule.
//
// # Strategies and polling
//
// A Strategy yields the wait after each failed attempt (for polling: each
// "not yet" answer). As a polling schedule it asks at ages 0, w1, w1+w2,
// ... Schedule converts a deterministic strategy into a
// *schedule.Schedule with the same asks: where the strategy settles on
// one wait for ever it ends in that interval, so
// exponential(initial=100ms, factor=2, max=20s) is
//
//	at 0s 100ms 300ms 700ms 1.5s 3.1s 6.3s 12.7s 25.5s, 20s
//
// and otherwise it lists the asks up to a horizon (runs of three or more
// equal waits as "D until T"). A randomised strategy has no single
// schedule: Asks and Realise draw one realisation from a seeded
// *rand.Rand, and MonteCarlo replays many and reports the median and the
// 10th and 90th percentiles of a metric.
//
// # Specs
//
// Parse reads name(arguments): positional arguments first, then
// key=value, separated by commas; names and keys are case-insensitive;
// durations use the schedule language's syntax (100ms, 1.5s, 2m, 1d).
// IsSpec tells a spec from a schedule (which has no parentheses).
//
//	constant(D)                      every wait D (also delay=D)
//	linear(initial=D, step=S)        D, D+S, D+2S, ...
//	exponential(initial=D, factor=F) D, D·F, D·F², ... (positional: initial, factor, max; F defaults to 2)
//	fibonacci(initial=D)             D·(1, 1, 2, 3, 5, 8, ...)
//	table(D1, D2, ...)               these waits, then give up
//	webhook()                        the webhook paper's standard table (see WebhookStandard)
//	webhook-exponential(base=60s, max=24h)  the paper's formula (see WebhookExponential)
//
// Options for all of these:
//
//	max=D (or cap=D)  cap each wait (before jitter, see below)
//	jitter=KIND       none, full, equal, decorrelated, F, grpc, grpc:F, plus:F (see JitterKind)
//	attempts=N        give up at the N-th failed attempt, the first attempt included
//	elapsed=D         give up at a failure D or more after the first attempt
//	multiplier=M      scale every wait by M, last
//	health=H          multiplier from an endpoint health score (HealthMultiplier)
//
// Each wait is computed in this order: the base wait b(n) of the kind,
// then jitter and the cap (without jitter min(b(n), max)), then the
// multiplier. The jitter kinds, with c = min(b, max):
//
//	full          U(0, c)                               AWS "full jitter"
//	equal         c/2 + U(0, c/2)                       AWS "equal jitter"
//	decorrelated  min(max, U(b(1), 3·previous wait))    AWS "decorrelated jitter"
//	F (e.g. 0.25) min(max, b·(1 + F·U(−1, 1)))          Algorithm::Backoff's jitter_factor
//	grpc, grpc:F  c·(1 + F·U(−1, 1)), F = 0.2 for grpc  gRPC; cenkalti/backoff's RandomizationFactor
//	                                                    and resilience4j's randomizationFactor (0.5)
//	plus:F        min(max, b + U(0, F·b))               the webhook paper, F = 0.1
//
// The difference between F and grpc:F is where the cap goes: before it
// a jittered wait never exceeds max, after it the wait spreads ±F
// around max once the cap is reached.
//
// # Algorithm::Backoff
//
// The names Constant, Exponential, Fibonacci, LILD, LIMD, MILD, MIMD
// written perl.NAME(...) (LILD, LIMD, MILD and MIMD also bare) are Perl's
// Algorithm::Backoff (version 0.009, Debian's
// libalgorithm-backoff-perl), with its attribute names and values in
// seconds (a duration with a unit is accepted too):
//
//	LIMD(initial_delay=2, min_delay=1, delay_increment_on_failure=4, delay_multiple_on_success=0.2)
//
// Perl and PerlBackoff reproduce the module exactly, including its
// order of operations. failure(t):
//
//  1. if max_actual_duration > 0 and t − start ≥ max_actual_duration,
//     return −1 (give up) without touching any state;
//  2. add one to the attempt counter; if max_attempts > 0 and the
//     counter ≥ max_attempts, return −1;
//  3. compute the raw failure delay (below).
//
// success(t) resets the attempt counter to 0 and computes the raw
// success delay. Both then go on:
//
//  4. the first outcome fixes the "last timestamp"; a timestamp before
//     it is an error ("decreasing timestamp");
//  5. with consider_actual_delay, delay ← delay + carry − (t − last
//     timestamp), and carry ← that delay (before jitter and clamping;
//     the carry starts at 0);
//  6. with jitter_factor f > 0 and a non-zero delay, delay ← U(delay·(1−f),
//     delay·(1+f));
//  7. clamp: above max_delay → max_delay; below 0 → 0; below min_delay →
//     min_delay (in that order, so min_delay wins over max_delay);
//  8. remember t as the last timestamp and the delay as the previous
//     delay, and return it.
//
// The raw delays: Constant: delay on failure, delay_on_success on
// success. Exponential: initial_delay·exponent_base^(attempts−1) on
// failure (base 2 by default), delay_on_success on success. Fibonacci:
// initial_delay1, initial_delay2, then the sum of the previous two raw
// failure delays; delay_on_success on success. LILD, LIMD, MILD, MIMD:
// the very first outcome, success or failure, gives initial_delay;
// afterwards the previous (clamped, jittered) delay plus
// delay_increment_on_failure (LI*) or times delay_multiple_on_failure
// (MI*) on failure, and plus delay_increment_on_success (*LD) or times
// delay_multiple_on_success (*MD) on success. As a Strategy, a Perl
// algorithm logs a failure at each elapsed time Next is given, as Perl's
// "retry --skip-delay" does. Where Go cannot tell a zero from an absent
// value, zero means the default: ExponentBase 0 is 2 and MaxDelay 0 is
// no maximum.
//
// pollfit's "delays" command is a drop-in for the module's
// show-backoff-delays; the tests compare both with the module itself
// (skipped when perl or libalgorithm-backoff-perl is absent).
//
// # The webhook paper
//
// WebhookStandard is its retry table: attempts at 0, 1m, 6m, 36m, 2h36m,
// 10h36m, 34h36m and 82h36m, then the dead-letter queue.
// WebhookExponential is its formula delay(n) = min(base·2^n + U(0,
// 0.1·base·2^n), max). Health and HealthMultiplier are its adaptive
// retry: health = Σ success·e^{−λ(now−t)} / |D| with λ = 0.1/hour, and
// waits ×0.5 above 0.9, ×1 above 0.5, ×2 otherwise.
package backoff

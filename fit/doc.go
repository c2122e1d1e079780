// Package fit turns a settle-time distribution into a polling schedule
// and measures schedules against logs.
//
// A client waiting for something to finish (a payment to settle, a job
// to complete) asks "done yet?" at the ages of a schedule (package
// fit/schedule). Every schedule trades two costs: how late the client
// notices the answer (lag) and how many times it asks (requests).
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
// The horizon defaults to the end of a stopping schedule and, for one
// that never stops, to its first ask at or after the largest final age in
// the log, so that it sees every answer there as it would in life. Ages compare in
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
package fit

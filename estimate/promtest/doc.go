// Package promtest reads latency metrics written by the real libraries
// and servers that teams run, with pollfit's readers (estimate/logs
// ReadMetric): a test exporter built on
// github.com/prometheus/client_golang observes generated settle times
// into a classic and a native histogram; Debian's prometheus, started by
// the tests on loopback with --enable-feature=native-histograms, scrapes
// it, and the query API's answers must hold the exporter's counts, as
// its text exposition does. The OpenTelemetry Go SDK
// (go.opentelemetry.io/otel/sdk/metric) aggregates the same times into
// a base-2 exponential histogram, written by the SDK's stdout exporter
// and by its OTLP exporter (the protobuf it sends, in OTLP's JSON
// mapping). It is a module of its own so that pollfit does not depend
// on the metrics libraries; .ci/run tests it, and the tests skip,
// naming the package, without a prometheus binary.
package promtest

// Package grpcrun holds, in its tests, the gRPC service configs that
// pollfit export -f grpc writes, run by real clients against a loopback
// grpc-go server that answers UNAVAILABLE: the server times each
// attempt, and the gaps between attempts are checked against the wait
// that pollfit models for the client. grpc-go and grpc-node (@grpc/grpc-js
// 1.14 and later, run by Node.js from ~/.cache/pollfit-grpcjs) wait
// cap × U(0.8, 1.2), gRFC A6 as revised in 2024; @grpc/grpc-js 1.13
// (~/.cache/pollfit-grpcjs113) waited U(0, cap), pollfit's node-1.13.
// The method name is checked against the policy's, and maxAttempts above
// 5 against the dial option that the export's note names. It is a
// module of its own so that pollfit does not depend on grpc; .ci/run
// installs the npm packages and tests it with
// "cd export/grpcrun && go test ./...".
package grpcrun

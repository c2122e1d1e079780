// Package grpcrun holds, in its tests, the gRPC service configs that
// pollfit export -f grpc writes, run by a real grpc-go client against a
// loopback server that answers UNAVAILABLE: the server times each
// attempt, and the gaps between attempts are checked against the wait
// that pollfit models for grpc-go (cap × U(0.8, 1.2), gRFC A6 as revised
// in 2024), the method name against the policy's, and maxAttempts above
// 5 against the dial option that the export's note names. It is a module
// of its own so that pollfit does not depend on grpc; .ci/run tests it
// with "cd export/grpcrun && go test ./...".
package grpcrun

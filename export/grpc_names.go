package export

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/internal/quote"
)

// GRPCCodes are gRPC's status codes by number, named as a service
// config's retryableStatusCodes takes them: grpc-go's parser takes
// these names exactly ("unavailable" is an invalid code) and a bare
// JSON number, but not a number in a string.
var GRPCCodes = []string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
	"NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
	"ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}

// grpcCheckCodes says which of codes is not a status name a client
// retries on, and what to write instead.
func grpcCheckCodes(codes []string) error {
	for _, c := range codes {
		i := grpcCodeIndex(c)
		switch {
		case i == 0:
			return fmt.Errorf("grpc: status code OK is a success and never retried: give the failures to retry on, such as UNAVAILABLE")
		case i > 0 && GRPCCodes[i] == c:
			continue
		case i > 0:
			return fmt.Errorf("grpc: status code %q: gRPC takes its name, %s, exactly: write %s", quote.Clip(c), GRPCCodes[i], GRPCCodes[i])
		}
		return fmt.Errorf("grpc: status code %q is not one of gRPC's: want one of %s", quote.Clip(c), strings.Join(GRPCCodes[1:], ", "))
	}
	return nil
}

// grpcCodeIndex is the number of the code c names, in any case or as a
// number, or -1.
func grpcCodeIndex(c string) int {
	if n, err := strconv.Atoi(strings.TrimSpace(c)); err == nil {
		if n >= 0 && n < len(GRPCCodes) {
			return n
		}
		return -1
	}
	norm := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(c), "-", "_"))
	for i, name := range GRPCCodes {
		if norm == name || norm == strings.ReplaceAll(name, "_", "") {
			return i
		}
	}
	return -1
}

// grpcMethodName is a methodConfig name: a service, and a method in it
// or none for all of them.
type grpcMethodName struct {
	Service string `json:"service,omitempty"`
	Method  string `json:"method,omitempty"`
}

// protoIdent is a protobuf identifier; a service name is dotted ones.
var (
	protoIdent   = `[A-Za-z_][A-Za-z0-9_]*`
	protoService = regexp.MustCompile(`^` + protoIdent + `(\.` + protoIdent + `)*$`)
	protoMethod  = regexp.MustCompile(`^` + protoIdent + `$`)
)

// grpcName reads "", "pkg.Svc", "pkg.Svc/Method" or "/pkg.Svc/Method".
func grpcName(s string) (grpcMethodName, error) {
	if s == "" {
		return grpcMethodName{}, nil
	}
	full, slash := strings.CutPrefix(s, "/") // a full method name, /pkg.Svc/Method
	svc, method, hasMethod := strings.Cut(full, "/")
	if !protoService.MatchString(svc) || slash && !hasMethod {
		return grpcMethodName{}, fmt.Errorf("grpc: service %q: want a full service name such as payments.v1.Status, or one method of it, payments.v1.Status/Get", quote.Clip(s))
	}
	if hasMethod && !protoMethod.MatchString(method) {
		return grpcMethodName{}, fmt.Errorf("grpc: service %q: the method after the / must be one name, such as payments.v1.Status/Get", quote.Clip(s))
	}
	return grpcMethodName{Service: svc, Method: method}, nil
}

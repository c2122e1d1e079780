package grpcrun

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// unavailable is a health service whose Check always answers
// UNAVAILABLE, noting when each attempt of each call (named by the
// request's service field) arrives.
type unavailable struct {
	healthpb.UnimplementedHealthServer
	mu       sync.Mutex
	attempts map[string][]time.Time
}

func (u *unavailable) Check(_ context.Context, req *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	now := time.Now()
	u.mu.Lock()
	u.attempts[req.GetService()] = append(u.attempts[req.GetService()], now)
	u.mu.Unlock()
	return nil, status.Error(codes.Unavailable, "try later")
}

// of returns the arrival times of call's attempts.
func (u *unavailable) of(call string) []time.Time {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]time.Time(nil), u.attempts[call]...)
}

// serve starts the server on a loopback port, stopped when t ends.
func serve(t *testing.T) (*unavailable, string) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	u := &unavailable{attempts: map[string][]time.Time{}}
	healthpb.RegisterHealthServer(srv, u)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return u, lis.Addr().String()
}

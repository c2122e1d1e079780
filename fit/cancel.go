package fit

import (
	"context"
	"fmt"
)

// stopped is nil while ctx is live (or nil), and once it is done its
// error (context.Canceled or context.DeadlineExceeded), wrapped with
// what stopped: "fit: stopped: context canceled".
func stopped(ctx context.Context, what string) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("%s: stopped: %w", what, ctx.Err())
}

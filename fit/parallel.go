package fit

import (
	"runtime"
	"sync"
)

// parallel runs fn(0..n-1) on up to GOMAXPROCS goroutines and returns
// the first error by index.
func parallel(n int, fn func(i int) error) error { return parallelFrom(n, nil, fn) }

// parallelFrom is parallel, telling start(i) (when not nil) from the
// calling goroutine, in order, as fn(i) starts.
func parallelFrom(n int, start func(i int), fn func(i int) error) error {
	errs := make([]error, n)
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		if start != nil {
			start(i)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = fn(i)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// leaves bounds the grafts running at once across the process (the
// shapes' candidates, of every fit a --by study runs at the same time):
// each holds a copy of its items, so memory stays at GOMAXPROCS copies
// however the searches nest. A leaf starts no other work that waits on
// it, so holding one never blocks another.
var leaves = make(chan struct{}, runtime.GOMAXPROCS(0))

// leaf runs fn holding one of the leaves.
func leaf(fn func()) {
	leaves <- struct{}{}
	defer func() { <-leaves }()
	fn()
}

package fit

import (
	"fmt"
	"sync"
)

// groupProgress tells a group study's StudyOptions.Progress its
// stages: the one schedule's own, prefixed, then how many groups'
// budget curves and fits are done. The groups are fitted in parallel,
// and the one schedule beside the curves, so it is called from their
// goroutines, one call at a time; once the groups' stages start, the
// one schedule's are no longer told (the counts say more).
type groupProgress struct {
	mu      sync.Mutex
	f       func(string)
	done    int
	counted bool // a stage of groups has started
}

func newGroupProgress(f func(string)) *groupProgress { return &groupProgress{f: f} }

// shared is the Progress of the one schedule's study.
func (p *groupProgress) shared() func(string) {
	if p.f == nil {
		return nil
	}
	return func(s string) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.counted {
			p.f("the one schedule: " + s)
		}
	}
}

// start begins a stage of n groups: "what: 0 of n".
func (p *groupProgress) start(what string, n int) func() {
	p.mu.Lock()
	p.done, p.counted = 0, true
	p.mu.Unlock()
	p.say(fmt.Sprintf("%s: 0 of %d", what, n))
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock() // counts said in order
		p.done++
		if p.f != nil {
			p.f(fmt.Sprintf("%s: %d of %d", what, p.done, n))
		}
	}
}

func (p *groupProgress) say(s string) {
	if p.f == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.f(s)
}

package fit

import (
	"fmt"
	"sync"
)

// segmentProgress tells a segment study's StudyOptions.Progress its
// stages: the one schedule's own, prefixed, then how many segments'
// budget curves and fits are done. The segments are fitted in parallel,
// so it is called from their goroutines, one call at a time.
type segmentProgress struct {
	mu   sync.Mutex
	f    func(string)
	done int
}

func newSegmentProgress(f func(string)) *segmentProgress { return &segmentProgress{f: f} }

// shared is the Progress of the one schedule's study.
func (p *segmentProgress) shared() func(string) {
	if p.f == nil {
		return nil
	}
	return func(s string) { p.say("the one schedule: " + s) }
}

// start begins a stage of n segments: "what: 0 of n".
func (p *segmentProgress) start(what string, n int) func() {
	p.mu.Lock()
	p.done = 0
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

func (p *segmentProgress) say(s string) {
	if p.f == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.f(s)
}

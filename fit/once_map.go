package fit

import "sync"

// onceMap holds values made once each, by key: the first caller for a
// key makes its value and the others asking for it meanwhile wait for
// it, so that callers on several goroutines share one making. Once it
// holds max values (0: no bound) it makes the values of new keys anew
// each time, keeping none. The zero value is empty and unbounded.
type onceMap[K comparable, V any] struct {
	mu  sync.Mutex
	m   map[K]*onceValue[V]
	max int
}

// onceValue is a value made once.
type onceValue[V any] struct {
	once sync.Once
	v    V
}

// get is k's value, made by make on the first call for k.
func (o *onceMap[K, V]) get(k K, make func() V) V {
	o.mu.Lock()
	if o.m == nil {
		o.m = map[K]*onceValue[V]{}
	}
	e := o.m[k]
	if e == nil && (o.max == 0 || len(o.m) < o.max) {
		e = &onceValue[V]{}
		o.m[k] = e
	}
	o.mu.Unlock()
	if e == nil {
		return make()
	}
	e.once.Do(func() { e.v = make() })
	return e.v
}

// len is how many values o holds.
func (o *onceMap[K, V]) len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.m)
}

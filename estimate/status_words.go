package estimate

import (
	"bytes"
	"sort"
	"strings"
)

// Status words known without options, matched case-insensitively.
var (
	defaultSettled = []string{"settled", "succeeded", "success", "successful", "succeed",
		"completed", "complete", "done", "paid", "captured", "confirmed", "approved",
		"finished", "ok", "final"}
	defaultFailed = []string{"failed", "failure", "fail", "error", "errored", "timeout",
		"timed_out", "timedout", "timed out", "cancelled", "canceled", "declined",
		"rejected", "expired", "aborted", "refused", "voided"}
	defaultPending = []string{"pending", "processing", "in_progress", "in-progress",
		"in progress", "running", "queued", "created", "open", "waiting", "started",
		"submitted", "new", "initiated", "requires_action", "authorized"}
)

// StatusWords map a log's status text to a Status: the default words
// below plus a reader's own final and pending words.
type StatusWords struct {
	m     map[string]Status
	known []string // for error messages
}

// NewStatusWords are the default words with final and pending added;
// added final words are settled unless they are a default failed word.
func NewStatusWords(final, pending []string) *StatusWords {
	t := &StatusWords{m: map[string]Status{}}
	add := func(words []string, s Status) {
		for _, w := range words {
			w = strings.ToLower(strings.TrimSpace(w))
			if w == "" {
				continue
			}
			if _, dup := t.m[w]; !dup {
				t.known = append(t.known, w)
			}
			t.m[w] = s
		}
	}
	// Defaults first so the options override them.
	add(defaultSettled, Settled)
	add(defaultFailed, Failed)
	add(defaultPending, Pending)
	add(final, Settled)
	add(pending, Pending)
	// Keep a user's failed-like final words Failed.
	for _, w := range final {
		w = strings.ToLower(strings.TrimSpace(w))
		for _, f := range defaultFailed {
			if w == f {
				t.m[w] = Failed
			}
		}
	}
	return t
}

// Lookup returns the Status of the trimmed, non-empty text b, matched
// case-insensitively.
func (t *StatusWords) Lookup(b []byte) (Status, bool) {
	if s, ok := t.m[string(b)]; ok {
		return s, true
	}
	var low [64]byte
	if len(b) > len(low) {
		s, ok := t.m[strings.ToLower(string(b))]
		return s, ok
	}
	l := low[:len(b)]
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		l[i] = c
	}
	if s, ok := t.m[string(l)]; ok {
		return s, true
	}
	if bytes.IndexFunc(b, func(r rune) bool { return r >= 0x80 }) >= 0 {
		s, ok := t.m[strings.ToLower(string(b))]
		return s, ok
	}
	return 0, false
}

// ByStatus are the lower-case words of each status, sorted.
func (t *StatusWords) ByStatus() map[Status][]string {
	words := map[Status][]string{}
	for w, s := range t.m {
		words[s] = append(words[s], w)
	}
	for _, ws := range words {
		sort.Strings(ws)
	}
	return words
}

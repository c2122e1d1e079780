package main

import (
	"net/url"
	"sort"
	"strings"
)

// isServerURL reports whether s names a database server sketch --from
// can query.
func isServerURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// redacted stands for a secret in messages.
const redacted = "xxxxx"

// secretParam reports whether a URL query parameter (or a libpq
// keyword) holds a secret: password, sslpassword and any other whose
// name says password, secret or token.
func secretParam(key string) bool {
	k := strings.ToLower(key)
	return strings.Contains(k, "password") || strings.Contains(k, "secret") || strings.Contains(k, "token")
}

// redact is a server URL without its secrets (the userinfo password and
// every secret parameter), to name it in messages.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" {
		return "the --from URL"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), redacted)
	}
	q := u.Query()
	for k := range q {
		if secretParam(k) {
			q[k] = []string{redacted}
		}
	}
	u.RawQuery = q.Encode()
	return strings.ReplaceAll(u.String(), url.QueryEscape(redacted), redacted)
}

// secrets are the secret values in a server URL, raw and as written,
// longest first.
func secrets(s string) []string {
	var out []string
	add := func(v string) {
		if v != "" && v != redacted {
			out = append(out, v, url.QueryEscape(v), url.PathEscape(v))
		}
	}
	if u, err := url.Parse(s); err == nil {
		if p, ok := u.User.Password(); ok {
			add(p)
		}
		for k, vs := range u.Query() {
			if secretParam(k) {
				for _, v := range vs {
					add(v)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// scrub is a message with the server URL s and every secret in it
// replaced, for messages that a driver wrote.
func scrub(msg, s string) string {
	msg = strings.ReplaceAll(msg, s, redact(s))
	for _, v := range secrets(s) {
		msg = strings.ReplaceAll(msg, v, redacted)
	}
	return msg
}

package estimate

import (
	"regexp"
	"strings"
)

// cteHead is the first line of a sketch query's CTE ("name AS ("), and
// cteRef a reference to a relation by name after FROM or JOIN.
var (
	cteHead = regexp.MustCompile(`^([a-z][a-z0-9_]*) AS \($`)
	cteRef  = regexp.MustCompile(`\b(FROM|JOIN) ([a-z][a-z0-9_]*)\b`)
)

// inlineCTEs rewrites a sketch query written with a WITH list of CTEs
// (as SketchSQL writes it: one "name AS (" line, the body, a "),"
// line) as one SELECT whose CTEs are subqueries in place, for engines
// without CTEs (ClickHouse before 20.1). A reference is replaced only
// by a CTE defined before the one that holds it, as a WITH list scopes
// them, so a table or a user's query in the first CTE is never touched.
// An engine then reads a CTE used twice twice: the query scans the
// table more often, with the same result.
func inlineCTEs(q string) string {
	lines := strings.SplitAfter(q, "\n")
	var head, tail strings.Builder
	defs := map[string]string{}
	i := 0
	for ; i < len(lines) && lines[i] != "WITH\n"; i++ {
		head.WriteString(lines[i])
	}
	if i == len(lines) {
		return q
	}
	for i++; i < len(lines); {
		m := cteHead.FindStringSubmatch(strings.TrimSuffix(lines[i], "\n"))
		if m == nil {
			break
		}
		var body strings.Builder
		for i++; i < len(lines) && lines[i] != "),\n" && lines[i] != ")\n"; i++ {
			body.WriteString(lines[i])
		}
		i++
		defs[m[1]] = expandRefs(strings.TrimSuffix(body.String(), "\n"), defs)
	}
	for ; i < len(lines); i++ {
		tail.WriteString(lines[i])
	}
	return head.String() + expandRefs(tail.String(), defs)
}

// expandRefs replaces each reference in s to a relation of defs by its
// body in parentheses, aliased by its name.
func expandRefs(s string, defs map[string]string) string {
	return cteRef.ReplaceAllStringFunc(s, func(ref string) string {
		m := cteRef.FindStringSubmatch(ref)
		body, ok := defs[m[2]]
		if !ok {
			return ref
		}
		return m[1] + " (\n" + body + "\n) AS " + m[2]
	})
}

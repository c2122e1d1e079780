package quote

import "strings"

// List is names as a list in a message, the last two joined by word:
// List([]string{"a", "b", "c"}, "or") is "a, b or c".
func List(names []string, word string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + word + " " + names[len(names)-1]
}

package export

import (
	"bytes"
	"io"
	"testing"
)

func BenchmarkJSON(b *testing.B) {
	s := mustParse(b, seeds[5].dsl)
	for b.Loop() {
		if err := JSON(io.Discard, s, seedMeta); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadJSON(b *testing.B) {
	var doc bytes.Buffer
	if err := JSON(&doc, mustParse(b, seeds[5].dsl), seedMeta); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := ReadJSON(bytes.NewReader(doc.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGo(b *testing.B) {
	s := mustParse(b, seeds[5].dsl)
	for b.Loop() {
		if err := Go(io.Discard, s, GoOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

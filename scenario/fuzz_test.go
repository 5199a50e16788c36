package scenario

import (
	"os"
	"path/filepath"
	"testing"
)

func FuzzParse(f *testing.F) {
	addFiles(f, filepath.Join("..", "examples", "*.toml"))
	f.Add([]byte(inlineDoc))
	f.Add([]byte(errBase))
	f.Add([]byte("[[a]]\n[[a.b]]\nx.y = [1, {z = 2}]\n[a.c]\n'q.k' = 1\n"))
	// The file sits in examples/ so that topology files resolve.
	name := filepath.Join("..", "examples", "fuzz.toml")
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, name)
		if (s == nil) == (err == nil) {
			t.Fatalf("scenario %v with error %v", s, err)
		}
		if err != nil {
			return
		}
		if verr := s.Validate(); verr != nil {
			t.Fatalf("parsed scenario does not validate: %v", verr)
		}
		for _, n := range s.Topology.Nodes {
			s.RouterFor(n.Name)
		}
		for _, l := range s.Topology.Links {
			s.QueueFor(l.A, l.B)
			s.QueueFor(l.B, l.A)
		}
		for _, c := range s.Consumers {
			if len(s.ProducersFor(c.Prefix)) == 0 {
				t.Fatalf("consumer %s has no producer", c.ID)
			}
		}
	})
}

// addFiles adds the files matching pattern to f's seed corpus.
func addFiles(f *testing.F, pattern string) {
	files, err := filepath.Glob(pattern)
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

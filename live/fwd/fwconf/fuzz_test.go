package fwconf

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the configuration parser: it returns
// a configuration or an error, never both and never neither, and never
// panics. The example configurations seed it.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "examples", "fw", "*.toml"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no example configurations (%v)", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("[[face]]\nremote = \"udp4://1.2.3.4\"\nlink = { out = { loss = 2 }, in = { bw = 1 } }\n[[route]]\nprefix = \"/a\"\nface = \"udp4://1.2.3.4\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data, "fuzz.toml")
		if (c == nil) == (err == nil) {
			t.Fatalf("configuration %v with error %v", c, err)
		}
		if err != nil {
			return
		}
		for i := range c.Faces {
			ff := &c.Faces[i]
			if ff.Scheme == "" || ff.Address == "" {
				t.Fatalf("face %d accepted without a parsed remote: %+v", i, ff)
			}
			c.QueueFor(ff)
			c.LossDetectionFor(ff)
		}
	})
}

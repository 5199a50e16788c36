package scenario

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/ndncc/ndncc/topology"
)

// TestExamplesLoad loads every scenario shipped in examples/.
func TestExamplesLoad(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "*.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("found %d example scenarios, want at least 2", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err != nil {
				t.Errorf("loaded scenario does not validate: %v", err)
			}
		})
	}
}

// TestLoadFS loads the examples through an fs.FS, the way the experiment
// catalog reads the embedded copies, and gets what Load gets.
func TestLoadFS(t *testing.T) {
	fsys := os.DirFS(filepath.Join("..", "examples"))
	for name, conf := range map[string]string{"linear-fixed32.toml": "linear.conf", "dumbbell-fixed16.toml": "dumbbell.conf"} {
		got, err := LoadFS(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Load(filepath.Join("..", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		if got.File != name || got.TopologyFile != conf {
			t.Errorf("%s: File %q, TopologyFile %q", name, got.File, got.TopologyFile)
		}
		if !reflect.DeepEqual(withoutFiles(got), withoutFiles(want)) {
			t.Errorf("%s: LoadFS and Load differ\n%+v\n%+v", name, got, want)
		}
	}
}

// withoutFiles returns s with every file name cleared, so that scenarios
// read through different paths compare equal.
func withoutFiles(s *Scenario) *Scenario {
	c := plain(s.Clone())
	c.File, c.TopologyFile = "", ""
	topo := *c.Topology
	topo.Nodes = slices.Clone(topo.Nodes)
	topo.Links = slices.Clone(topo.Links)
	for i := range topo.Nodes {
		topo.Nodes[i].Pos.File = ""
	}
	for i := range topo.Links {
		topo.Links[i].Pos.File = ""
	}
	c.Topology = &topo
	clear := func(p *topology.Pos) { p.File = "" }
	clear(&c.Routers.Pos)
	for i := range c.Producers {
		clear(&c.Producers[i].Pos)
	}
	for i := range c.Consumers {
		clear(&c.Consumers[i].Pos)
		for k, p := range c.Consumers[i].ParamPos {
			clear(&p)
			c.Consumers[i].ParamPos[k] = p
		}
	}
	return c
}

func TestLoadFSTopologyError(t *testing.T) {
	fsys := fstest.MapFS{
		"s/a.toml": {Data: []byte("[topology]\nfile = \"../t/x.conf\"\n")},
		"t/x.conf": {Data: []byte("[nodes]\na: _\n[links]\na:b\n")},
		"s/b.toml": {Data: []byte("[topology]\nfile = \"none.conf\"\n")},
	}
	tests := []struct{ name, want string }{
		{"s/a.toml", `s/a.toml:2: topology.file: t/x.conf:4: links: link a:b: node "b" is not declared`},
		{"s/b.toml", `s/b.toml:2: topology.file: open s/none.conf: file does not exist`},
	}
	for _, tt := range tests {
		_, err := LoadFS(fsys, tt.name)
		if err == nil || err.Error() != tt.want {
			t.Errorf("LoadFS(%s) error\n got %v\nwant %s", tt.name, err, tt.want)
		}
	}
}

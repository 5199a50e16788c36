package topology

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func loadExample(t *testing.T, name string) *Topology {
	t.Helper()
	path := filepath.Join("..", "examples", name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	topo, err := ParseMiniNDN(f, name)
	if err != nil {
		t.Fatalf("ParseMiniNDN(%s): %v", name, err)
	}
	return topo
}

func TestParseMiniNDNLinear(t *testing.T) {
	got := loadExample(t, "linear.conf")
	want := &Topology{
		Nodes: []Node{
			{Name: "consumer1", Pos: Pos{"linear.conf", 2}},
			{Name: "router1", Pos: Pos{"linear.conf", 3}},
			{Name: "router2", Pos: Pos{"linear.conf", 4}},
			{Name: "producer1", Pos: Pos{"linear.conf", 5}},
		},
		Links: []Link{
			{A: "consumer1", B: "router1", Delay: 10 * time.Millisecond, Bandwidth: 10e6, QueuePackets: 1000, Pos: Pos{"linear.conf", 7}},
			{A: "router1", B: "router2", Delay: 10 * time.Millisecond, Bandwidth: 5e6, QueuePackets: 32, Pos: Pos{"linear.conf", 8}},
			{A: "router2", B: "producer1", Delay: 10 * time.Millisecond, Bandwidth: 10e6, QueuePackets: 1000, Pos: Pos{"linear.conf", 9}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestParseMiniNDNDumbbell(t *testing.T) {
	got := loadExample(t, "dumbbell.conf")
	var names []string
	for _, n := range got.Nodes {
		names = append(names, n.Name)
	}
	if want := []string{"consumer1", "router1", "producer1", "consumer2", "router2", "producer2"}; !reflect.DeepEqual(names, want) {
		t.Errorf("nodes %v, want %v", names, want)
	}
	var links []string
	for _, l := range got.Links {
		links = append(links, l.String())
	}
	if want := []string{"consumer1:router1", "router1:router2", "router2:producer1", "consumer2:router1", "router2:producer2"}; !reflect.DeepEqual(links, want) {
		t.Errorf("links %v, want %v", links, want)
	}
	bottleneck, ok := got.Link("router2", "router1")
	if !ok || bottleneck.Bandwidth != 5e6 || bottleneck.QueuePackets != 32 || bottleneck.Delay != 10*time.Millisecond || bottleneck.Pos.Line != 10 {
		t.Errorf("bottleneck = %+v, %v", bottleneck, ok)
	}
}

func TestParseMiniNDNSyntax(t *testing.T) {
	const conf = `# a comment
; another comment
[nodes]
a: _ radius=0.5 angle=2.46   # trailing comment
b:
  c: _ _

[links]
a:b delay=1.5s bw=0.5 max_queue_size=7 loss=2.5
b:c delay=250US jitter=2ms
`
	got, err := ParseMiniNDN(strings.NewReader(conf), "t.conf")
	if err != nil {
		t.Fatal(err)
	}
	want := &Topology{
		Nodes: []Node{
			{Name: "a", Params: map[string]string{"radius": "0.5", "angle": "2.46"}, Pos: Pos{"t.conf", 4}},
			{Name: "b", Pos: Pos{"t.conf", 5}},
			{Name: "c", Pos: Pos{"t.conf", 6}},
		},
		Links: []Link{
			{A: "a", B: "b", Delay: 1500 * time.Millisecond, Bandwidth: 0.5e6, QueuePackets: 7, Loss: 0.025, Pos: Pos{"t.conf", 9}},
			{A: "b", B: "c", Delay: 250 * time.Microsecond, Jitter: 2 * time.Millisecond, QueuePackets: DefaultQueuePackets, Pos: Pos{"t.conf", 10}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestParseMiniNDNErrors(t *testing.T) {
	const head = "[nodes]\na: _\nb: _\nc: _\n[links]\n" // links start at line 6
	tests := []struct {
		name, conf, want string
	}{
		{"undeclared node", head + "a:x delay=1ms\n",
			`f.conf:6: links: link a:x: node "x" is not declared`},
		{"duplicate link", head + "a:b\nb:a\n",
			`f.conf:7: links: link b:a: duplicate link (first at f.conf:6)`},
		{"self link", head + "c:c\n",
			`f.conf:6: links: link c:c: a link cannot join a node to itself`},
		{"bad bw", head + "a:b bw=fast\n",
			`f.conf:6: bw: invalid number "fast"`},
		{"zero bw", head + "a:b bw=0\n",
			`f.conf:6: bw: must be a positive number of Mbit/s, got "0" (leave bw out for an unlimited link)`},
		{"nan bw", head + "a:b bw=NaN\n",
			`f.conf:6: bw: invalid number "NaN"`},
		{"delay without unit", head + "a:b delay=10\n",
			`f.conf:6: delay: invalid time "10" (expected a number with a unit s, ms or us, such as 10ms)`},
		{"delay bad unit", head + "a:b delay=10min\n",
			`f.conf:6: delay: invalid time "10min": unknown unit "min" (use s, ms or us)`},
		{"negative delay", head + "a:b delay=-1ms\n",
			`f.conf:6: delay: must not be negative, got "-1ms"`},
		{"huge delay", head + "a:b delay=1e300s\n",
			`f.conf:6: delay: invalid time "1e300s": unknown unit "e300s" (use s, ms or us)`},
		{"queue zero", head + "a:b max_queue_size=0\n",
			`f.conf:6: max_queue_size: must be at least 1 packet, got 0`},
		{"queue not int", head + "a:b max_queue_size=3.5\n",
			`f.conf:6: max_queue_size: invalid integer "3.5"`},
		{"loss range", head + "a:b loss=101\n",
			`f.conf:6: loss: must be a percentage between 0 and 100, got "101"`},
		{"jitter", head + "a:b delay=10ms jitter=2x\n",
			`f.conf:6: jitter: invalid time "2x": unknown unit "x" (use s, ms or us)`},
		{"unknown key", head + "a:b dealy=10ms\n",
			`f.conf:6: dealy: unknown link parameter (supported: delay, jitter, bw, max_queue_size, loss)`},
		{"key twice", head + "a:b bw=1 bw=2\n",
			`f.conf:6: bw: given twice for link a:b`},
		{"not key=value", head + "a:b 10ms\n",
			`f.conf:6: links: expected key=value, got "10ms"`},
		{"bad link name", head + "a-b delay=1ms\n",
			`f.conf:6: links: expected "a:b key=value ...", got "a-b"`},
		{"three ends", head + "a:b:c\n",
			`f.conf:6: links: expected "a:b key=value ...", got "a:b:c"`},
		{"duplicate node", "[nodes]\na: _\na: _\n",
			`f.conf:3: nodes: node "a" is declared twice (first at f.conf:2)`},
		{"bad node name", "[nodes]\nmy node: _\n",
			`f.conf:2: nodes: node name "my node" has the character ' ' (use letters, digits, '-', '_' and '.')`},
		{"node without colon", "[nodes]\na _\n",
			`f.conf:2: nodes: expected "name: _" or "name: key=value ...", got "a _"`},
		{"node param twice", "[nodes]\na: x=1 x=2\n",
			`f.conf:2: x: given twice for node "a"`},
		{"outside section", "a: _\n[nodes]\na: _\n",
			`f.conf:1: not a Mini-NDN topology file: text outside any section (expected [nodes] or [links] first)`},
		// Another file named as a topology: one error, none of its text.
		{"not a topology", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/:/sbin/nologin\n",
			`f.conf:1: not a Mini-NDN topology file: text outside any section (expected [nodes] or [links] first)`},
		{"long token", "[nodes]\na: " + strings.Repeat("y", 100) + "\n",
			`f.conf:2: nodes: expected key=value, got "` + strings.Repeat("y", 40) + `"`},
		{"non-ASCII node name", "[nodes]\nnœud: _\n",
			`f.conf:2: nodes: node name "nœud" has the character 'œ' (use letters, digits, '-', '_' and '.')`},
		{"invalid UTF-8 node name", "[nodes]\nn\xffd: _\n",
			`f.conf:2: nodes: node name "n\xffd" is not valid UTF-8`},
		{"unknown section", "[nodes]\na: _\n[hosts]\nb: _\n",
			`f.conf:3: section: unknown section [hosts] (expected [nodes], [links], [switches] or [faces])`},
		{"switches", "[nodes]\na: _\n[switches]\ns1: _\n",
			`f.conf:4: switches: switch "s1: _": switches are not supported (ndncc models hosts joined by point-to-point links)`},
		{"section twice", "[nodes]\na: _\n[nodes]\nb: _\n",
			`f.conf:3: section: section [nodes] appears twice`},
		{"unterminated section", "[nodes\na: _\n",
			`f.conf:1: section: unterminated section header "[nodes"` + "\n" + `f.conf: nodes: missing [nodes] section`},
		{"no nodes", "[links]\n",
			`f.conf: nodes: missing [nodes] section`},
		{"empty nodes", "[nodes]\n",
			`f.conf: nodes: the [nodes] section declares no node`},
		{"several errors in line order", head + "a:b bw=x\nb:c loss=y\n",
			"f.conf:6: bw: invalid number \"x\"\nf.conf:7: loss: invalid number \"y\""},
		{"long line", "[nodes]\n" + strings.Repeat("x", maxLineBytes+1) + "\n",
			`f.conf:2: line longer than 1048576 bytes`},
		{"too many errors", "[nodes]\n" + strings.Repeat("a\n", 100), manyErrors()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			topo, err := ParseMiniNDN(strings.NewReader(tt.conf), "f.conf")
			if err == nil {
				t.Fatalf("no error, got %+v", topo)
			}
			if topo != nil {
				t.Errorf("got a topology with the error")
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

// manyErrors is what 100 node lines without a colon give: 20 errors, then
// the parser stops.
func manyErrors() string {
	var lines []string
	for l := 2; l <= 21; l++ {
		lines = append(lines, fmt.Sprintf(`f.conf:%d: nodes: expected "name: _" or "name: key=value ...", got "a"`, l))
	}
	return strings.Join(lines, "\n") + "\nf.conf:21: 20 errors; stopped reading"
}

func TestParseNetemTime(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"10ms", 10 * time.Millisecond},
		{"0ms", 0},
		{"1s", time.Second},
		{"2secs", 2 * time.Second},
		{"0.5msec", 500 * time.Microsecond},
		{"100us", 100 * time.Microsecond},
		{"3USECS", 3 * time.Microsecond},
		{"+1ms", time.Millisecond},
	}
	for _, tt := range tests {
		got, err := ParseNetemTime(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseNetemTime(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "ms", "1", "1.2.3ms", "-0.1s", "1h", "1e19s", "9300000000s"} {
		if d, err := ParseNetemTime(bad); err == nil {
			t.Errorf("ParseNetemTime(%q) = %v, want an error", bad, d)
		}
	}
}

func FuzzParseMiniNDN(f *testing.F) {
	for _, name := range []string{"linear.conf", "dumbbell.conf"} {
		data, err := os.ReadFile(filepath.Join("..", "examples", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("[nodes]\na: _ radius=1\nb:\n[links]\na:b delay=1ms bw=1 loss=1 max_queue_size=1 # c\n")
	f.Add("[links]\n[nodes]\n;x\n[switches]\na:a:a x=y=z\n")
	f.Fuzz(func(t *testing.T, conf string) {
		topo, err := ParseMiniNDN(strings.NewReader(conf), "fuzz.conf")
		if (topo == nil) == (err == nil) {
			t.Fatalf("topology %v with error %v", topo, err)
		}
		if err != nil {
			return
		}
		if verr := topo.Validate(); verr != nil {
			t.Fatalf("parsed topology does not validate: %v", verr)
		}
		if len(topo.Nodes) > 30 {
			return // all pairs of a large graph are too slow for fuzzing
		}
		routes := topo.Routes()
		for _, src := range topo.Nodes {
			for _, dst := range topo.Nodes {
				if got, want := routes.NextHops(src.Name, dst.Name), topo.NextHops(src.Name, dst.Name); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s->%s: Routes %v, NextHops %v", src.Name, dst.Name, got, want)
				}
			}
		}
	})
}

// TestSprintPOP loads Mini-NDN's own sprint_pop.conf (a copy from its
// repository, topologies/sprint_pop.conf): 52 nodes, an empty [switches]
// section that loads with a note, and links with delays only.
func TestSprintPOP(t *testing.T) {
	f, err := os.Open("testdata/sprint_pop.conf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	topo, err := ParseMiniNDN(f, "testdata/sprint_pop.conf")
	if err != nil {
		t.Fatalf("sprint_pop.conf: %v", err)
	}
	if len(topo.Nodes) != 52 || len(topo.Links) != 84 {
		t.Errorf("%d nodes and %d links, want 52 and 84", len(topo.Nodes), len(topo.Links))
	}
	l, ok := topo.Link("KansasCity", "Seattle")
	if !ok || l.Delay != 100*time.Millisecond || l.Bandwidth != DefaultBandwidth {
		t.Errorf("KansasCity:Seattle = %+v, want 100 ms and the default bandwidth", l)
	}
	if want := []string{"testdata/sprint_pop.conf:54: [switches] is empty: ignored"}; !slices.Equal(topo.Notes, want) {
		t.Errorf("notes %q, want %q", topo.Notes, want)
	}
	if c := topo.Components(); len(c) != 52 {
		t.Errorf("components of %d nodes", len(c))
	}
}

func TestFacesSection(t *testing.T) {
	const conf = "[nodes]\na: _\nb: _\nc: _\n[links]\na:b delay=1ms\nb:c\n[faces]\na:b cost=42\nb:c _\n"
	topo, err := ParseMiniNDN(strings.NewReader(conf), "f.conf")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"f.conf:8: [faces] (2 NLSR neighbour faces) ignored: ndncc routes over every link itself"}; !slices.Equal(topo.Notes, want) {
		t.Errorf("notes %q, want %q", topo.Notes, want)
	}
	_, err = ParseMiniNDN(strings.NewReader(conf+"a:c cost=x\n"), "f.conf")
	if err == nil || !strings.Contains(err.Error(), `f.conf:11: faces: expected cost=N (an integer) or _, got "cost=x"`) {
		t.Errorf("bad cost: %v", err)
	}
}

package scenario

import (
	"strings"
	"testing"
	"time"
)

// tcpBase is a valid scenario with one TCP flow and no NDN. Its lines:
//
//	1 [topology]   5 [[tcp]]
//	2 nodes        6 from
//	3 links        7 to
//	4              8 size
const tcpBase = `[topology]
nodes = ["c", "r", "p", "x"]
links = [{ a = "c", b = "r", delay = "1ms" }, { a = "r", b = "p", delay = "1ms" }]

[[tcp]]
from = "p"
to = "c"
size = "1MiB"
`

func TestParseTCPDefaults(t *testing.T) {
	s, err := Parse([]byte(tcpBase+"[[tcp]]\nid = \"u\"\nfrom = \"c\"\nto = \"p\"\nsize = 5000\nalgorithm = \"cubic\"\nstart = \"2s\"\nmss = 536\n"), "f.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := []TCPFlow{
		{ID: "c", From: "p", To: "c", Size: 1 << 20, Algorithm: "reno", Start: 0, MSS: 1448},
		{ID: "u", From: "c", To: "p", Size: 5000, Algorithm: "cubic", Start: 2 * time.Second, MSS: 536},
	}
	if len(s.TCP) != len(want) {
		t.Fatalf("%d TCP flows, want %d", len(s.TCP), len(want))
	}
	for i, f := range s.TCP {
		f.Pos = want[i].Pos
		if f != want[i] {
			t.Errorf("tcp[%d] = %+v, want %+v", i, f, want[i])
		}
	}
	if s.TCP[1].Pos.Line != 9 {
		t.Errorf("tcp[1] at line %d, want 9", s.TCP[1].Pos.Line)
	}
	c := s.Clone()
	c.TCP[0].Size = 1
	if s.TCP[0].Size != 1<<20 {
		t.Error("Clone shares the TCP flows")
	}
}

func TestParseTCPErrors(t *testing.T) {
	replace := func(old, new string) string {
		t.Helper()
		if !strings.Contains(tcpBase, old) {
			t.Fatalf("%q is not in the base scenario", old)
		}
		return strings.Replace(tcpBase, old, new, 1)
	}
	tests := []struct{ name, doc, want string }{
		{"unknown key", tcpBase + "window = 3\n",
			`f.toml:9: tcp[0].window: unknown key (expected one of: id, from, to, size, algorithm, start, mss)`},
		{"no sender", replace("from = \"p\"\n", ""),
			`f.toml:5: tcp[0].from: required`},
		{"unknown receiver", replace(`to = "c"`, `to = "q"`),
			`f.toml:7: tcp[0].to: no node "q" in the topology`},
		{"to itself", replace(`to = "c"`, `to = "p"`),
			`f.toml:7: tcp[0].to: is the sender itself ("p")`},
		{"unreachable", replace(`to = "c"`, `to = "x"`),
			`f.toml:7: tcp[0].to: node "x" is not reachable from "p"`},
		{"no size", replace("size = \"1MiB\"\n", ""),
			`f.toml:5: tcp[0].size: required (the bytes to transfer, or a string with a unit such as "10MiB")`},
		{"negative size", replace(`size = "1MiB"`, `size = -3`),
			`f.toml:8: tcp[0].size: must be positive, got -3`},
		{"size unit", replace(`size = "1MiB"`, `size = "1 MiBs"`),
			`f.toml:8: tcp[0].size: invalid size "1 MiBs": unknown unit "MiBs" (use B, KB, KiB, MB, MiB, GB or GiB)`},
		{"algorithm", tcpBase + "algorithm = \"vegas\"\n",
			`f.toml:9: tcp[0].algorithm: unknown algorithm "vegas" (use one of reno, cubic)`},
		{"mss", tcpBase + "mss = 0\n",
			`f.toml:9: tcp[0].mss: must be between 1 and 65483 bytes, got 0`},
		{"late start", "duration = \"10s\"\n" + tcpBase + "start = \"20s\"\n",
			`f.toml:10: tcp[0].start: 20s is not before the end of the run (duration 10s)`},
		{"start type", tcpBase + "start = 3\n",
			`f.toml:9: tcp[0].start: expected a duration string such as "300s" or "10ms", got an integer`},
		{"duplicate id", tcpBase + "[[tcp]]\nfrom = \"c\"\nto = \"c\"\nid = \"c\"\nsize = 1\n",
			"f.toml:11: tcp[1].to: is the sender itself (\"c\")\n" +
				`f.toml:12: tcp[1].id: id "c" is already used by tcp[0] (set a unique id)`},
		{"id taken by a consumer", tcpBase + "[[producer]]\nnode = \"c\"\nprefix = \"/x\"\nfile-size = 1\n\n[[consumer]]\nnode = \"c\"\nprefix = \"/x\"\npipeline = \"fixed\"\n",
			`f.toml:5: tcp[0].id: id "c" is already used by consumer[0] (set a unique id)`},
		{"not an array of tables", "tcp = 3\n" + errBase,
			`f.toml:1: tcp: expected an array of tables ([[tcp]]), got an integer`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.doc), "f.toml")
			if err == nil {
				t.Fatalf("no error; scenario %+v", s)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

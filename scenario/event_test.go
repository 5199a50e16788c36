package scenario

import (
	"testing"
	"time"
)

func TestEventsDecode(t *testing.T) {
	s, err := Parse([]byte(errBase+`
[[event]]
at = "20s"
link = "r-c"
up = true
[[event]]
at = "10s"
link = "c-r"
down = true
[[event]]
at = "10s"
link = "r-p"
bw = "500kbps"
[[event]]
at = "11s"
link = "r-p"
bw = 5
[[event]]
at = "12s"
link = "r-p"
delay = "20ms"
[[event]]
at = "13s"
link = "r-p"
loss = 5
[[event]]
at = "14s"
node = "r"
down = true
`), "f.toml")
	if err != nil {
		t.Fatal(err)
	}
	got := s.SortedEvents()
	want := []string{"10s link c-r down", "10s link r-p bw=0.5Mbps", "11s link r-p bw=5Mbps", "12s link r-p delay=20ms", "13s link r-p loss=5%", "14s node r down", "20s link r-c up"}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i, e := range got {
		if s := e.At.String() + " " + e.Target() + " " + e.Change(); s != want[i] {
			t.Errorf("event %d: %s, want %s", i, s, want[i])
		}
	}
	if bw := *got[1].Bandwidth; bw != 500e3 {
		t.Errorf("bw %v bit/s, want 500000", bw)
	}
	if d := *got[3].Delay; d != 20*time.Millisecond {
		t.Errorf("delay %v", d)
	}
	if p := *got[4].Loss; p != 0.05 {
		t.Errorf("loss %v, want 0.05 (5 percent)", p)
	}
	links := s.EventLinks(got[5])
	if len(links) != 2 || links[0].String() != "c:r" || links[1].String() != "r:p" {
		t.Errorf("node r's links: %v", links)
	}
	if l, ok := s.EventLink(got[6]); !ok || l.A != "c" || l.B != "r" {
		t.Errorf("r-c names link %v, %v", l, ok)
	}
	c := s.Clone()
	if len(c.Events) != len(s.Events) {
		t.Errorf("a clone has %d events, want %d", len(c.Events), len(s.Events))
	}
}

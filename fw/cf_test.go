package fw

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// cfModel is the specification cf is checked against: weights
// 1/(pending+1), one draw r = Float64()*sum, the first face whose running
// weight sum exceeds r.
func cfModel(rng *rand.Rand, pending []int) int {
	var sum float64
	for _, n := range pending {
		sum += 1 / float64(n+1)
	}
	r := rng.Float64() * sum
	var acc float64
	for i, n := range pending {
		acc += 1 / float64(n+1)
		if r < acc {
			return i
		}
	}
	return len(pending) - 1
}

func TestCF(t *testing.T) {
	r := multipathRig(t, StrategyCF, 3)
	replay := rand.New(rand.NewPCG(1, 2)) // newRig's random source
	pending := make([]int, 3)
	var open [][2]int // (Interest number, face index) not yet answered
	counts := make([]int, 3)
	for i := range 60 {
		n := fmt.Sprintf("/a/%d", i)
		r.s.advanceTo(r.s.Now() + ms)
		r.f.Receive(r.ids["c"], interest(n, uint32(i+1)))
		want := cfModel(replay, pending)
		wantFace := fmt.Sprintf("p%d", want+1)
		if got := r.sent(); len(got) != 1 || len(got[wantFace]) != 1 {
			t.Fatalf("Interest %d (pending %v): sent %v, want it on %s", i, pending, got, wantFace)
		}
		pending[want]++
		counts[want]++
		open = append(open, [2]int{i, want})
		if i%3 == 2 { // answer the oldest open Interest
			x := open[0]
			open = open[1:]
			r.f.Receive(r.ids[fmt.Sprintf("p%d", x[1]+1)], data(fmt.Sprintf("/a/%d", x[0]), 0))
			pending[x[1]]--
			r.sent()
		}
	}
	for i, c := range counts {
		if c == 0 {
			t.Errorf("face p%d never chosen: %v", i+1, counts)
		}
	}
}

func TestCFSingleEligibleTakesNoDraw(t *testing.T) {
	r := multipathRig(t, StrategyCF, 2)
	r.run([]step{
		// from p1 the only eligible nexthop is p2
		{at: 0, on: "p1", pkt: interest("/a/1", 1), want: sent{"p2": {"I /a/1 nonce=1"}}, pit: 1},
	})
	replay := rand.New(rand.NewPCG(1, 2))
	want := fmt.Sprintf("p%d", cfModel(replay, []int{0, 1})+1)
	r.run([]step{
		{at: 1 * ms, on: "c", pkt: interest("/a/2", 2), want: sent{want: {"I /a/2 nonce=2"}}, pit: 2},
	})
}

package cc

import (
	"strconv"
	"testing"
	"time"
)

// TestBBRDeliveryRateStream replays a receiver that sends an Interest every
// 10 ms over a 100 ms path: Data i arrives at 100+10i ms. Before the
// first Data nothing was delivered, so Data i < 10 measures i+1 Data
// over its own RTT; from Data 10 on, the last Data delivered at its send
// time is Data i-10, and every sample is 10 Data per 100 ms.
func TestBBRDeliveryRateStream(t *testing.T) {
	r := newDeliveryRate()
	for i := range 40 {
		want := 100.0
		if i < 10 {
			want = float64(i+1) / 0.1
		}
		got := r.onData(ms(float64(100+10*i)), 100*time.Millisecond, time.Second)
		checkNear(t, "Data "+strconv.Itoa(i), "rate", got, want)
	}
}

// TestBBRDeliveryRate replays irregular Data and checks each sample against
// (delivered - d_P) / max(now - t_P, s - f_P).
func TestBBRDeliveryRate(t *testing.T) {
	r := newDeliveryRate()
	steps := []struct {
		name    string
		at, rtt float64 // ms; rtt 0: a retransmission, no sample
		rate    float64 // segments/s, 0: none
	}{
		{name: "first Data: 1 over 100 ms", at: 100, rtt: 100, rate: 1 / 0.1},
		{name: "sent at 10, before any delivery: 2 over 100 ms", at: 110, rtt: 100, rate: 2 / 0.1},
		{name: "sent at 90, before any delivery: 3 over 100 ms", at: 190, rtt: 100, rate: 3 / 0.1},
		// Sent at 100 when Data 1 (sent at 0) arrived: 3 since, over
		// max(200-100, 100-0) ms.
		{name: "Data 1 delivered at its send time", at: 200, rtt: 100, rate: 3 / 0.1},
		{name: "a queue: sent at 60, before any delivery", at: 210, rtt: 150, rate: 5 / 0.15},
		{name: "retransmission: counted, no rate", at: 220, rtt: 0, rate: 0},
		// Sent at 120: the last delivery then was Data 2 (at 110, sent at
		// 10); 5 delivered since, over max(230-110, 120-10) ms.
		{name: "ack interval", at: 230, rtt: 110, rate: 5 / 0.12},
		// Sent at 100, when Data 1 had just arrived (at 100, sent at 0):
		// 7 since, over max(400-100, 100-0) ms.
		{name: "long RTT", at: 400, rtt: 300, rate: 7 / 0.3},
		// Sent at 395: the last delivery then was at 230 (Data 7, sent at
		// 120): 2 since, over max(405-230, 395-120) ms: the send interval.
		{name: "send interval", at: 405, rtt: 10, rate: 2 / 0.275},
	}
	for _, s := range steps {
		got := r.onData(ms(s.at), ms(s.rtt), time.Second)
		checkNear(t, s.name, "rate", got, s.rate)
	}
	if r.delivered != uint64(len(steps)) {
		t.Errorf("delivered %d, want %d", r.delivered, len(steps))
	}
}

// TestBBRDeliveryRateHistory: the history forgets what is older than the
// horizon only when it is full, grows otherwise, and a Data sent before
// what it kept gives no sample.
func TestBBRDeliveryRateHistory(t *testing.T) {
	r := newDeliveryRate()
	for i := range initialDeliveries {
		r.onData(ms(float64(100+i)), 100*time.Millisecond, 10*time.Second)
	}
	if r.n != initialDeliveries || len(r.ring) != initialDeliveries {
		t.Fatalf("held %d of %d", r.n, len(r.ring))
	}
	// All within the 10 s horizon: the ring doubles.
	r.onData(ms(100+initialDeliveries), 100*time.Millisecond, 10*time.Second)
	if len(r.ring) != 2*initialDeliveries || r.n != initialDeliveries+1 {
		t.Fatalf("after growing: held %d of %d", r.n, len(r.ring))
	}
	// Fill it; with a 1 ms horizon the oldest go instead of growing.
	for i := r.n; i < len(r.ring)+3; i++ {
		r.onData(ms(float64(100+i)), 100*time.Millisecond, time.Millisecond)
	}
	if len(r.ring) != 2*initialDeliveries || r.n != len(r.ring) || r.at(0).delivered != 4 {
		t.Fatalf("after forgetting: held %d of %d, oldest %d", r.n, len(r.ring), r.at(0).delivered)
	}
	// Sent at 100 ms, before the oldest entry kept (103 ms): no sample.
	if got := r.onData(ms(700), 600*time.Millisecond, time.Millisecond); got != 0 {
		t.Errorf("sample from forgotten history: %v", got)
	}
}

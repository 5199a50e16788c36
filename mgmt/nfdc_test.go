package mgmt

import (
	"bufio"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	"github.com/named-data/ndnd/std/types/optional"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/internal/vclock"
	"github.com/ndncc/ndncc/ndn"
)

// TestNfdcReplay replays the Interests NFD 24.07's nfdc sent to `ndncc fw`
// (testdata/nfdc, recorded on its Unix socket, one hex-encoded Interest a
// line) for the commands that need status datasets and faces/query, and
// checks that each is answered as nfdc needs: a dataset segment that ends
// the dataset, or a ControlResponse 200. The harness numbers its faces as
// `ndncc fw` did then: the manager 1, nfdc's Unix face 2, the UDP face
// nfdc names 3.
func TestNfdcReplay(t *testing.T) {
	tests := []struct {
		file     string
		wantVerb []string // module/verb of each Interest, in order
	}{
		{"status.hex", []string{"status/general"}},
		{"routeadd.hex", []string{"faces/query", "rib/register"}},
		{"routeremove.hex", []string{"faces/query", "rib/unregister"}},
		{"faceshow.hex", []string{"faces/query"}},
		{"facedestroy.hex", []string{"faces/query", "faces/destroy"}},
		{"channels.hex", []string{"faces/channels"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			h := nfdOrderHarness(t)
			ins := readRecorded(t, filepath.Join("testdata", "nfdc", tt.file))
			if len(ins) != len(tt.wantVerb) {
				t.Fatalf("%d Interests recorded, want %d", len(ins), len(tt.wantVerb))
			}
			for i, in := range ins {
				top := len(LocalhostPrefix())
				if got := componentString(in.Name[top]) + "/" + componentString(in.Name[top+1]); got != tt.wantVerb[i] {
					t.Fatalf("Interest %d is %s, want %s", i, got, tt.wantVerb[i])
				}
				got := h.send(h.app, in)
				if len(got) != 1 || got[0].Data == nil {
					t.Fatalf("%s: %d packets back, want one Data", in.Name, len(got))
				}
				d := got[0].Data
				if last := d.Name[len(d.Name)-1]; last.IsSegment() {
					if !d.HasFinal || !d.FinalBlockID.Equal(last) || len(d.Content) == 0 {
						t.Errorf("%s: segment %s of %s, %d bytes: want the only segment, not empty",
							tt.wantVerb[i], last, d.FinalBlockID, len(d.Content))
					}
					continue
				}
				if res := controlResponse(t, d); res.StatusCode != 200 {
					t.Errorf("%s: %d %q, want 200", tt.wantVerb[i], res.StatusCode, res.StatusText)
				}
			}
		})
	}
}

// nfdOrderHarness is a harness whose faces are numbered as `ndncc fw`
// numbers them: the manager's internal face first.
func nfdOrderHarness(t *testing.T) *harness {
	t.Helper()
	s := &vclock.Scheduler{}
	fwd, err := fw.New(fw.Config{Name: "test"}, s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	faces := &fakeFaces{fwd: fwd, out: map[fw.FaceID]*recFace{}}
	h := &harness{t: t, s: s, fwd: fwd, faces: faces}
	if h.m, err = New(Config{Forwarder: fwd, Scheduler: s, Faces: faces}); err != nil {
		t.Fatal(err)
	}
	h.app = faces.add(FaceInfo{Remote: "fd://9", Local: "unix:///tmp/x/fw.sock", Scope: nfd.FaceScopeLocal,
		Persistency: nfd.FacePersOnDemand, MTU: optional.Some(uint64(StreamMTU))}, fw.FaceLocal)
	h.net = faces.add(FaceInfo{Remote: "udp4://127.0.0.1:6399", Local: "udp4://127.0.0.1:33875",
		Scope: nfd.FaceScopeNonLocal, Persistency: nfd.FacePersPersistent, MTU: optional.Some(uint64(1420))}, fw.FaceNetwork)
	if h.m.FaceID() != 1 || h.app.ID != 2 || h.net.ID != 3 {
		t.Fatalf("faces %d, %d, %d, want 1, 2, 3", h.m.FaceID(), h.app.ID, h.net.ID)
	}
	return h
}

// readRecorded reads hex-encoded Interests, one a line.
func readRecorded(t *testing.T, path string) []*ndn.Interest {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*ndn.Interest
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		w, err := hex.DecodeString(sc.Text())
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, decodeInterest(t, w))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/ndncc/ndncc/"

// core are the sans-IO packages: protocol logic that runs on an injected
// scheduler and faces (docs/architecture.md, "The sans-IO rule").
var core = []string{"cc", "rtt", "consumer", "producer", "fw", "aqm", "link", "mgmt", "ndn", "sched", "tcp", "internal/fifo",
	"internal/lazytimer", "internal/reentry"}

// runtimes bind the core to time and I/O; the core never depends on them.
var runtimes = []string{"sim/...", "live/...", "emu/...", "experiment/...", "report/...", "cmd/...", "internal/cli",
	"internal/vclock", "internal/timerheap", "internal/atomicfile", "internal/browsertest", "internal/realtimetest"}

// rules lists, for every ndncc package (path below the module), the ndncc
// packages it must never depend on, directly or not: a path names one
// package, "x/..." x and every package below it, "..." all of ndncc.
var rules = map[string][]string{
	"sched":    {"..."},
	"ndn":      {"..."},
	"cc":       append([]string{"tcp", "sched", "consumer/...", "producer/...", "fw/...", "aqm", "link/..."}, runtimes...),
	"consumer": append([]string{"tcp", "fw/...", "aqm", "link/...", "producer/..."}, runtimes...),
	"producer": append([]string{"tcp", "fw/...", "aqm", "link/...", "consumer/..."}, runtimes...),
	"fw":       append([]string{"tcp", "consumer/...", "producer/...", "aqm", "link/..."}, runtimes...),
	// aqm is the queue disciplines of every output queue (a link's, a
	// live face's): below the forwarder and the link layer, on ndn alone.
	"aqm":  append([]string{"tcp", "sched", "cc", "consumer/...", "producer/...", "fw/...", "link/..."}, runtimes...),
	"mgmt": append([]string{"tcp", "consumer/...", "producer/...", "link/..."}, runtimes...),
	// link is the link layer below the forwarder: a face's NDNLPv2
	// reliability and the link model the simulator and the emulator share.
	// It may use an output queue (aqm) and the RTT estimator (rtt),
	// never the forwarder nor the window algorithms (cc).
	"link": append([]string{"tcp", "fw/...", "cc", "consumer/...", "producer/..."}, runtimes...),
	// tcp is the TCP baseline's sender and receiver: a window algorithm
	// (cc), the RTO (rtt) and a scheduler, never NDN's packets, faces,
	// forwarder or pipelines.
	"tcp": append([]string{"ndn", "consumer/...", "producer/...", "fw/...", "aqm", "link/...", "mgmt"}, runtimes...),
	// rtt is RFC 6298's estimator the pipelines, the link layer and the
	// simulator's TCP share: a leaf.
	"rtt": {"..."},

	"internal/fifo": {"..."},
	// The core's lazy timer and re-entrancy guard: below everything but
	// the scheduler interface and the FIFO.
	"internal/lazytimer": append([]string{"tcp", "cc", "consumer/...", "producer/...", "fw/...", "aqm", "link/...", "ndn", "internal/fifo"}, runtimes...),
	"internal/reentry":   append([]string{"tcp", "cc", "consumer/...", "producer/...", "fw/...", "aqm", "link/...", "ndn", "sched"}, runtimes...),
	// The timer queue of both runtimes: only the FIFO (its lanes).
	"internal/timerheap":  append([]string{"tcp", "cc", "consumer/...", "producer/...", "fw/...", "aqm", "link/...", "ndn", "sched", "mgmt", "internal/lazytimer", "internal/reentry"}, runtimes...),
	"internal/vclock":     append([]string{"tcp", "cc", "consumer/...", "producer/...", "fw/...", "aqm", "link/...", "ndn"}, runtimes[:7]...),
	"internal/atomicfile": {"..."},
	// The multi-buffer SHA-256 the readers verify digests with: a leaf.
	"internal/sha256batch":  {"..."},
	"internal/browsertest":  {"..."},
	"internal/realtimetest": {"..."},
	"internal/arch":         {"..."},
	// internal/sidebyside times two builds of a benchmark at once: a
	// program of its own, on no ndncc package.
	"internal/sidebyside": {"..."},
	// internal/ndntest makes packets for the tests of the live runtime.
	"internal/ndntest": append([]string{"tcp", "cc", "consumer/...", "producer/...", "fw/...", "aqm", "link/...", "sched"}, runtimes...),

	"topology": append([]string{"tcp", "cc", "consumer/...", "producer/...", "fw/...", "aqm", "link/...", "ndn", "sched"}, runtimes...),
	"scenario": append([]string{"tcp", "consumer/...", "producer/...", "fw/...", "aqm", "link/..."}, runtimes...),
	"sim":      {"live/...", "emu/...", "experiment/...", "report/...", "cmd/...", "internal/cli"},
	"live":     {"sim/...", "emu/...", "experiment/...", "report/...", "cmd/...", "internal/cli"},
	// live/eventloop is the live runtime's clock and event loop that the
	// daemon, the applications and the emulator run on: it knows no
	// packets, faces nor protocol. (The core's rows forbid it through
	// "live/...": the core sees it only as a sched.Scheduler.)
	"live/eventloop": {"tcp", "cc", "rtt", "consumer/...", "producer/...", "fw/...", "aqm", "link/...", "mgmt", "ndn",
		"topology", "scenario", "live", "live/face", "live/fwd/...", "live/ndndtest",
		"sim/...", "emu/...", "experiment/...", "report/...", "cmd/...", "internal/cli"},
	"live/ndndtest": {"..."},
	// live/face is the NDNLPv2 face of the forwarder and the applications:
	// transports, listeners, the link service, a forwarder's face's send
	// queue, an application's reader on its loop. It knows queues, the link
	// layer and the event loop, never the forwarder (live/fwd wires them)
	// nor the applications (live uses it).
	"live/face": {"live", "live/fwd/...", "live/ndndtest", "fw/...", "consumer/...", "producer/...", "scenario",
		"sim/...", "emu/...", "experiment/...", "report/...", "cmd/...", "internal/cli"},
	// live/fwd is `ndncc fw`: the fw core on live/eventloop's loop with
	// live/face's faces, never the applications (live: fetch, serve).
	"live/fwd": {"live", "live/ndndtest", "sim/...", "emu/...", "experiment/...", "report/...", "cmd/...", "internal/cli"},
	// live/fwd/fwconf is `ndncc fw`'s configuration: a scenario's keys
	// (decoded with scenario.Keys) and plain values, no forwarder, faces
	// nor loop, so that a file is checked before anything starts.
	"live/fwd/fwconf": {"tcp", "cc", "rtt", "consumer/...", "producer/...", "fw/...", "aqm", "link/...", "mgmt", "sched",
		"live", "live/eventloop", "live/face", "live/fwd", "live/ndndtest",
		"sim/...", "emu/...", "experiment/...", "report/...", "cmd/...", "internal/cli"},
	// emu is `ndncc emu`: live/fwd's forwarders, live's applications and
	// sim's routes, options and results, wired in real time.
	"emu":        {"live/ndndtest", "experiment/...", "report/...", "cmd/...", "internal/cli"},
	"experiment": {"live/...", "emu/...", "report/...", "cmd/...", "internal/cli"},
	"report":     {"live/...", "emu/...", "cmd/...", "internal/cli"},
	"examples":   {"..."},
	// internal/cli is the command line, cmd/ndncc the program that runs it.
	"internal/cli": {"cmd/..."},
	"cmd/ndncc":    {},
}

// forbiddenImports are standard packages the core must not import itself:
// sockets, files, processes and goroutine synchronisation belong to the
// runtimes.
var forbiddenImports = []string{"net", "os", "os/exec", "os/signal", "syscall", "sync", "sync/atomic", "unsafe"}

// forbiddenTime are the functions of package time that read the wall clock
// or wait on it.
var forbiddenTime = []string{"Now", "Since", "Until", "Sleep", "After", "AfterFunc", "NewTimer", "NewTicker", "Tick"}

type pkg struct {
	path    string // below the module
	dir     string
	files   []string
	imports []string
	deps    []string // ndncc packages only, below the module
}

func list(t *testing.T) map[string]*pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-f",
		"{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}}\t{{join .Imports \" \"}}\t{{join .Deps \" \"}}",
		module+"...").Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	pkgs := map[string]*pkg{}
	for line := range strings.Lines(string(out)) {
		f := strings.Split(strings.TrimRight(line, "\n"), "\t")
		if len(f) != 5 {
			t.Fatalf("go list printed %q", line)
		}
		p := &pkg{path: strings.TrimPrefix(f[0], module), dir: f[1], files: strings.Fields(f[2]), imports: strings.Fields(f[3])}
		for _, d := range strings.Fields(f[4]) {
			if rest, ok := strings.CutPrefix(d, module); ok {
				p.deps = append(p.deps, rest)
			}
		}
		pkgs[p.path] = p
	}
	return pkgs
}

// matches reports whether package path is what rule names (see rules).
func matches(path, rule string) bool {
	if rule == "..." {
		return true
	}
	if tree, ok := strings.CutSuffix(rule, "/..."); ok {
		return path == tree || strings.HasPrefix(path, tree+"/")
	}
	return path == rule
}

func TestEveryPackageHasRules(t *testing.T) {
	pkgs := list(t)
	for path := range pkgs {
		if _, ok := rules[path]; !ok {
			t.Errorf("package %s has no row in rules: decide what it must never import", path)
		}
	}
	for path := range rules {
		if _, ok := pkgs[path]; !ok {
			t.Errorf("rules name package %s, which does not exist", path)
		}
	}
}

func TestDependencyRules(t *testing.T) {
	for path, p := range list(t) {
		for _, dep := range p.deps {
			for _, rule := range rules[path] {
				if matches(dep, rule) {
					t.Errorf("%s depends on %s, which it must never import (rule %q)", path, dep, rule)
				}
			}
		}
	}
}

// TestCoreIsSansIO: the core imports no sockets, files, processes or
// goroutine synchronisation, never reads or waits on the wall clock and
// starts no goroutine (time.Duration and friends are fine: "now" comes
// from a sched.Scheduler).
func TestCoreIsSansIO(t *testing.T) {
	pkgs := list(t)
	for _, path := range core {
		p, ok := pkgs[path]
		if !ok {
			t.Errorf("core package %s does not exist", path)
			continue
		}
		for _, imp := range p.imports {
			if slices.Contains(forbiddenImports, imp) || strings.HasPrefix(imp, "net/") {
				t.Errorf("core package %s imports %s", path, imp)
			}
		}
		for _, name := range p.files {
			checkSansIO(t, filepath.Join(p.dir, name))
		}
	}
}

// checkSansIO reports go statements and wall-clock calls in one file.
func checkSansIO(t *testing.T, file string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	timePkg := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "time" {
			timePkg = "time"
			if imp.Name != nil {
				timePkg = imp.Name.Name
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			t.Errorf("%s: starts a goroutine", fset.Position(n.Pos()))
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && timePkg != "" && id.Name == timePkg && slices.Contains(forbiddenTime, n.Sel.Name) {
				t.Errorf("%s: uses the wall clock (time.%s)", fset.Position(n.Pos()), n.Sel.Name)
			}
		}
		return true
	})
}

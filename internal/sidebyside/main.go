// Command sidebyside compares the speed of two builds of a Go benchmark by
// running them at the same time on one processor.
//
//	go run ./internal/sidebyside [flags] OLD.test OLDDIR NEW.test NEWDIR
//
// OLD.test and NEW.test are test binaries (go test -c), each run in its
// own directory (the package directory of its tree, for the files the
// benchmark reads). In each round both start together, pinned to the same
// processor, and each runs the benchmark a fixed number of iterations
// (-n). The kernel time-slices the two, so they meet the same conditions a
// few milliseconds apart: on a shared or virtual machine, whose speed
// drifts by tens of percent from one second to the next, that is what
// makes two builds comparable. Runs one after the other, even interleaved,
// measure the drift as much as the code.
//
// Each round gives two figures per build:
//   - the process's CPU time (user and system), which is the work the
//     build did: its ratio is the builds' ratio;
//   - the benchmark's own ns/op, wall time: the build that finishes first
//     leaves the other the processor, so the ratio of ns/op is about
//     (1+r)/2 for a CPU-time ratio r, the same side of 1 but half as far
//     from it.
//
// It prints every round, the medians of each set of five rounds (the
// median of five runs of each build, and their ratio), and the median of
// the rounds' ratios. The order of the two starts alternates from round
// to round.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sidebyside:", err)
		os.Exit(2)
	}
}

// build is one side: a test binary and the directory it runs in.
type build struct{ bin, dir string }

// sample is one build's figures in one round.
type sample struct {
	cpuMS float64 // user and system CPU time of the whole process, ms
	nsOp  float64 // the benchmark's ns/op
}

func (s sample) cpu() float64  { return s.cpuMS }
func (s sample) wall() float64 { return s.nsOp }

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("sidebyside", flag.ContinueOnError)
	rounds := fs.Int("rounds", 10, "rounds (each runs both builds once)")
	n := fs.Int("n", 60, "benchmark iterations per run (-test.benchtime Nx)")
	cpu := fs.Int("cpu", 1, "the processor both builds run on")
	bench := fs.String("bench", "BenchmarkLinear10MiB$", "the benchmark (-test.bench)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 4 {
		return errors.New("want OLD.test OLDDIR NEW.test NEWDIR")
	}
	if *rounds < 1 || *n < 1 || *cpu < 0 {
		return fmt.Errorf("-rounds %d, -n %d, -cpu %d: want rounds and n at least 1, cpu at least 0", *rounds, *n, *cpu)
	}
	old, cur := build{fs.Arg(0), fs.Arg(1)}, build{fs.Arg(2), fs.Arg(3)}
	benchArgs := []string{"-test.run", "^$", "-test.bench", *bench, "-test.cpu", "1", "-test.benchtime", strconv.Itoa(*n) + "x"}
	var olds, news []sample
	fmt.Fprintf(out, "%5s %12s %12s %9s %14s %14s %9s\n", "round", "old CPU ms", "new CPU ms", "old/new", "old ns/op", "new ns/op", "old/new")
	for i := range *rounds {
		o, c, err := round(old, cur, benchArgs, *cpu, i%2 == 1)
		if err != nil {
			return fmt.Errorf("round %d: %w", i+1, err)
		}
		olds, news = append(olds, o), append(news, c)
		fmt.Fprintf(out, "%5d %12.1f %12.1f %9.3f %14.0f %14.0f %9.3f\n", i+1, o.cpuMS, c.cpuMS, ratio(o.cpuMS, c.cpuMS),
			o.nsOp, c.nsOp, ratio(o.nsOp, c.nsOp))
	}
	report(out, olds, news)
	return nil
}

// round runs both builds at once on processor cpu, the new one first if
// newFirst, and returns their figures.
func round(old, cur build, args []string, cpu int, newFirst bool) (sample, sample, error) {
	sides := []build{old, cur}
	if newFirst {
		sides = []build{cur, old}
	}
	cmds, outs, err := start(sides, args, cpu)
	if err != nil {
		return sample{}, sample{}, err
	}
	var res [2]sample
	for i, cmd := range cmds {
		output := <-outs[i]
		if err := cmd.Wait(); err != nil {
			return sample{}, sample{}, fmt.Errorf("%s: %w\n%s", sides[i].bin, err, output)
		}
		ns, err := nsPerOp(output)
		if err != nil {
			return sample{}, sample{}, fmt.Errorf("%s: %w", sides[i].bin, err)
		}
		cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		res[i] = sample{cpuMS: float64(cpu) / float64(time.Millisecond), nsOp: ns}
	}
	if newFirst {
		return res[1], res[0], nil
	}
	return res[0], res[1], nil
}

// start starts the builds pinned to processor cpu: from a thread pinned to
// it, so that each process and every thread it makes inherit the pin from
// the start. Each process's output comes on its channel once it closes.
func start(sides []build, args []string, cpu int) ([]*exec.Cmd, []chan []byte, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var was, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &was); err != nil {
		return nil, nil, fmt.Errorf("reading this thread's processors: %w", err)
	}
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return nil, nil, fmt.Errorf("pinning to processor %d: %w", cpu, err)
	}
	defer func() { _ = unix.SchedSetaffinity(0, &was) }()
	var cmds []*exec.Cmd
	var outs []chan []byte
	for _, b := range sides {
		cmd := exec.Command(b.bin, args...)
		cmd.Dir = b.dir
		pipe, err := cmd.StdoutPipe()
		if err == nil {
			cmd.Stderr = cmd.Stdout
			err = cmd.Start()
		}
		if err != nil {
			for _, c := range cmds {
				_ = c.Process.Kill()
				_ = c.Wait()
			}
			return nil, nil, fmt.Errorf("%s: %w", b.bin, err)
		}
		out := make(chan []byte, 1)
		go func() {
			b, _ := io.ReadAll(pipe) // a read error shows as a missing result
			out <- b
		}()
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	return cmds, outs, nil
}

// benchLine finds a benchmark result line's ns/op.
var benchLine = regexp.MustCompile(`(?m)^Benchmark\S*\s+\d+\s+([0-9.]+) ns/op`)

// nsPerOp returns the ns/op of the one benchmark result in out.
func nsPerOp(out []byte) (float64, error) {
	m := benchLine.FindAllSubmatch(out, -1)
	if len(m) != 1 {
		return 0, fmt.Errorf("want one benchmark result, found %d in:\n%s", len(m), out)
	}
	return strconv.ParseFloat(string(m[0][1]), 64)
}

// report prints the sets of five rounds and the median of all rounds'
// ratios.
func report(out io.Writer, olds, news []sample) {
	fmt.Fprintf(out, "\n%-14s %21s %21s\n", "", "CPU time old/new", "ns/op old/new")
	for i := 0; i+5 <= len(olds); i += 5 {
		o, n := olds[i:i+5], news[i:i+5]
		fmt.Fprintf(out, "%-14s %21.3f %21.3f\n", fmt.Sprintf("rounds %d-%d", i+1, i+5),
			ratio(median(column(o, sample.cpu)), median(column(n, sample.cpu))),
			ratio(median(column(o, sample.wall)), median(column(n, sample.wall))))
	}
	var rc, rn []float64
	for i := range olds {
		rc = append(rc, ratio(olds[i].cpuMS, news[i].cpuMS))
		rn = append(rn, ratio(olds[i].nsOp, news[i].nsOp))
	}
	fmt.Fprintf(out, "%-14s %21.3f %21.3f\n", "all, median", median(rc), median(rn))
	fmt.Fprintf(out, "(sets: the median of five runs of each build; all: the median of the rounds' ratios)\n")
}

// column returns one figure (f) of each sample.
func column(s []sample, f func(sample) float64) []float64 {
	v := make([]float64, len(s))
	for i := range s {
		v[i] = f(s[i])
	}
	return v
}

// ratio is a/b, 0 when b is 0.
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// median returns the median of v (the mean of the middle two for an even
// count), 0 for none.
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

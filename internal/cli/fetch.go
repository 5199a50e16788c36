package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/internal/atomicfile"
	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/ndn"
)

// Exit codes of fetch (and serve).
const (
	exitFailure   = 1 // any other failure (I/O, ...)
	exitUsage     = 2 // bad arguments
	exitNotFound  = 3 // version discovery got no answer, or no route
	exitTimedOut  = 4 // a segment's retries were exhausted
	exitIntegrity = 5 // a Data failed its digest or signature check
	exitNoForward = 6 // the forwarder cannot be reached, or the connection was lost
)

// exitCodeOf maps a live error to an exit code.
func exitCodeOf(err error) int {
	switch {
	case errors.Is(err, live.ErrIntegrity):
		return exitIntegrity
	case errors.Is(err, live.ErrNotFound):
		return exitNotFound
	case errors.Is(err, live.ErrTimedOut):
		return exitTimedOut
	case errors.Is(err, live.ErrFaceDown):
		return exitNoForward
	}
	return exitFailure
}

// The reconnection budget of fetch and serve.
const (
	defaultReconnect = "10s"
	reconnectDoc     = "when the connection to the forwarder is lost, reconnect for up to this long (ms, or a duration like 10s; 0: give up at once)"
)

// durationParams take milliseconds (ndnget) or a Go duration: the
// pipeline-level ones and the algorithms'.
func durationParams() []string {
	var out []string
	for _, d := range append(consumer.ParamDocs(), algorithmParams()...) {
		if d.Duration {
			out = append(out, d.Name)
		}
	}
	return out
}

// paramFlag binds a command-line flag to a named pipeline parameter.
type paramFlag struct {
	flag, param string
	invert      bool // the flag is the negation of a boolean parameter
}

// value converts a flag's value to the parameter's: the negation of an
// inverted flag, milliseconds as a duration.
func (b paramFlag) value(v string) (string, error) {
	if b.invert {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return "", fmt.Errorf("--%s: %w", b.flag, err)
		}
		v = strconv.FormatBool(!on)
	}
	if slices.Contains(durationParams(), b.param) {
		d, err := parseMillis(v)
		if err != nil {
			return "", fmt.Errorf("--%s: %w", b.flag, err)
		}
		v = d.String()
	}
	return v, nil
}

// fetchFlags are fetch's flags that are not pipeline parameters.
type fetchFlags struct {
	pipeline    string
	size        int
	noDiscovery bool
	output      string
	verbose     bool
	quiet       bool
	transport   string
	logCwnd     string
	logRTT      string
	cert        string
	trust       string
	asJSON      bool
	mtu         int
	reconnect   string
	naming      string
	profile     string
	params      []paramFlag
}

func newFetchCmd() *cobra.Command {
	cmd, _ := fetchCommand()
	return cmd
}

// fetchCommand returns the fetch command and the flags it parses into.
func fetchCommand() (*cobra.Command, *fetchFlags) {
	var ff fetchFlags
	cmd := &cobra.Command{
		Use: "fetch NAME",
		Example: `  ndncc fetch /example/readme -o readme.copy -v
  ndncc fetch ndn:/example/movie -p cubic -o movie.bin
  ndncc fetch /example/movie -o /dev/null                      # time a transfer
  ndncc fetch /example/movie --trust anchor.cert -o movie.bin  # verify against a trust anchor
  ndncc fetch /example/movie --log-cwnd cwnd.tsv --log-rtt rtt.tsv -o movie.bin
  ndncc fetch /example/movie --transport udp://192.0.2.1:6363 -o movie.bin`,
		Short: "Fetch a segmented object from the NDN network (like ndn-tools' ndnget)",
		Long: `Fetch the segmented object NAME through the local forwarder (NFD, YaNFD or
ndnd) with one of the simulator's pipelines (paced-delay unless -p names
another; ndnget's is -p cubic), and write it to stdout or to -o FILE (written
whole, then renamed). The version is discovered with RDR unless NAME ends
with one or -D is given. --trust digest (the default) checks every digest
and signature but authenticates no one; --trust FILE accepts only that
certificate's key; --trust any checks no signature. The summary says which
pipeline ran and how the object was authenticated.

Every pipeline parameter is a flag too (--init-cwnd, --aimd-step,
--cubic-c, --delay-alpha, ...: 'ndncc params' lists them with their
defaults, which are the simulator's). docs/live.md has the details: the
transport chosen, trust, retransmissions, reconnection, the differences
from ndnget and the exit status (0 ok, 2 bad arguments, 3 not found,
4 timed out, 5 integrity failure, 6 forwarder unreachable).`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFetch(cmd, &ff, args[0])
		},
	}
	cmd.SetFlagErrorFunc(usageError)
	fs := cmd.Flags()
	fs.SortFlags = false
	fs.StringVarP(&ff.pipeline, "pipeline-type", "p", defaultPipeline, "`name` of the pipeline: "+strings.Join(cc.Pipelines(), ", ")+"; --profile ndnget selects cubic, ndnget's")
	fs.IntVarP(&ff.size, "pipeline-size", "s", cc.DefaultFixedWindow, "window of the fixed pipeline, in segments")
	fs.StringVar(&ff.profile, "profile", "", "start from the parameters of this `profile` instead of the defaults (which are ndnget's): "+strings.Join(consumer.ProfileNames(), ", ")+"; ndncc params lists them")
	fs.StringVarP(&ff.naming, "naming-convention", "N", "typed", "`convention` of version and segment components: typed (NDN naming conventions rev. 3); ndnget's marker is not supported")
	fs.StringVarP(&ff.output, "output", "o", "", "write the object to this `file` (default: stdout)")
	fs.BoolVarP(&ff.noDiscovery, "no-version-discovery", "D", false, "do not discover the version: request NAME/seg=N directly")
	fs.BoolVarP(&ff.verbose, "verbose", "v", false, "report the transport, the version, and every congestion mark, timeout and Nack")
	fs.BoolVarP(&ff.quiet, "quiet", "q", false, "print nothing but errors")
	fs.StringVar(&ff.transport, "transport", "", "the forwarder's `uri`: unix:///path, tcp://host[:port] or udp://host[:port]")
	fs.IntVar(&ff.mtu, "mtu", live.DefaultUDPMTU, "largest datagram on a UDP transport (larger packets are fragmented)")
	fs.Var(textVar(&ff.reconnect, defaultReconnect, "ms"), "reconnect", reconnectDoc)
	fs.StringVar(&ff.trust, "trust", "digest", "what is accepted, `digest|any|FILE`: digest (integrity only: digests, or signatures checked with the certificate the network serves; not authenticated), any (no signature checked, digests compared), or FILE, a certificate (PEM or TLV: only its key's signatures, authenticated)")
	fs.StringVar(&ff.cert, "cert", "", "same as --trust FILE: trust only Data signed by the key of this certificate (a PEM or TLV `file`)")
	fs.BoolVar(&ff.asJSON, "json", false, "print the summary as one JSON document on stdout (with -o FILE), authentication included")
	fs.StringVar(&ff.logCwnd, "log-cwnd", "", "write the window trace (ndnget's time\\tcwndsize, time in seconds) to this `file`")
	fs.StringVar(&ff.logRTT, "log-rtt", "", "write the RTT trace (ndnget's segment\\trtt\\trttvar\\tsrtt\\trto, in ms) to this `file`")
	ff.params = addParamFlags(fs)
	// The help lists ndnget's basic options; the other pipeline
	// parameters work the same but are left to 'ndncc params' and
	// docs/live.md, so the help stays one screen.
	for _, b := range ff.params {
		if !slices.Contains([]string{"fresh", "lifetime", "retries", "timeout"}, b.flag) {
			if err := fs.MarkHidden(b.flag); err != nil {
				panic(err) // the flag was defined above
			}
		}
	}
	return cmd, &ff
}

// addParamFlags defines a flag for every pipeline parameter (the
// pipeline-level ones and every algorithm's) and returns the bindings:
// ndnget's names where ndnget has the option, the parameter's own name
// otherwise. A flag's default is the parameter's (docs/parameters.md); it
// is passed on only when given, so every default stays the simulator's.
func addParamFlags(fs *pflag.FlagSet) []paramFlag {
	docs := map[string]cc.ParamDoc{}
	for _, d := range consumer.ParamDocs() {
		docs[d.Name] = d
	}
	var binds []paramFlag
	bound := map[string]bool{}
	add := func(flag, short, param string, invert bool, d cc.ParamDoc) {
		bound[param] = true
		b := paramFlag{flag: flag, param: param, invert: invert}
		binds = append(binds, b)
		def, doc := d.Default, d.Doc
		if invert || strings.HasPrefix(def, "false") || strings.HasPrefix(def, "true") {
			on := strings.HasPrefix(def, "true") != invert
			if more, ok := strings.CutPrefix(def, "false "); ok {
				doc += " " + more // "(true for ndn-vegas)"
			}
			fs.BoolP(flag, short, on, doc)
			return
		}
		if slices.Contains(durationParams(), param) {
			if dd, err := time.ParseDuration(def); err == nil {
				def = strconv.FormatInt(dd.Milliseconds(), 10)
			}
		}
		if slices.Contains(durationParams(), param) {
			doc += " (ms, or a duration such as 250ms)"
		}
		fs.VarP(newTextValue(def, flagType(param, def)), flag, short, doc)
	}
	// ndnget's basic and adaptive-pipeline options first, in its order.
	for _, f := range []struct {
		flag, short, param string
		invert             bool
	}{
		{"fresh", "f", "must-be-fresh", false},
		{"lifetime", "l", "lifetime", false},
		{"retries", "r", "retries", false},
		{"timeout", "", "timeout", false},
		{"ignore-marks", "", "ignore-marks", false},
		{"disable-cwa", "", "conservative", true},
	} {
		d := docs[f.param]
		if f.invert {
			d.Doc = "disable conservative window adaptation (reduce the window on every signal, not at most once per RTT)"
		}
		add(f.flag, f.short, f.param, f.invert, d)
	}
	for _, d := range consumer.ParamDocs() {
		if !bound[d.Name] {
			add(d.Name, "", d.Name, false, d)
		}
	}
	for _, d := range algorithmParams() {
		add(d.Name, "", d.Name, false, d)
	}
	return binds
}

// flagType names, in a flag's help, what its value is.
func flagType(param, def string) string {
	switch {
	case slices.Contains(durationParams(), param):
		return "ms"
	case slices.Contains([]string{"retries", "hole-threshold", "span-windows", "raaqm-samples", "bbr-bw-rounds"}, param):
		return "int"
	}
	if _, err := strconv.ParseFloat(def, 64); err == nil || def == "" {
		return "number"
	}
	return "name"
}

// textValue is a flag's text, checked later by the parameter's parser,
// whose help names its type (ms, int, number) instead of "string".
type textValue struct {
	s   *string
	typ string
}

// newTextValue returns a flag value of its own, initially def.
func newTextValue(def, typ string) *textValue { return textVar(new(string), def, typ) }

// textVar returns a flag value stored in *p, initially def.
func textVar(p *string, def, typ string) *textValue {
	*p = def
	return &textValue{p, typ}
}

func (v *textValue) String() string     { return *v.s }
func (v *textValue) Set(s string) error { *v.s = s; return nil }
func (v *textValue) Type() string       { return v.typ }

// algorithmParams lists every algorithm parameter once (but the fixed
// window, which is -s), documented with the pipelines that take it and
// each one's default; Default is "" where the pipelines' defaults differ.
func algorithmParams() []cc.ParamDoc {
	var out []cc.ParamDoc
	users := map[string][]string{}
	defaults := map[string]map[string][]string{} // name -> default -> pipelines
	for _, p := range cc.Pipelines() {
		for _, d := range cc.Describe(p) {
			if p == "fixed" && d.Name == "window" {
				continue
			}
			if users[d.Name] == nil {
				out = append(out, d)
				defaults[d.Name] = map[string][]string{}
			}
			users[d.Name] = append(users[d.Name], p)
			defaults[d.Name][d.Default] = append(defaults[d.Name][d.Default], p)
		}
	}
	for i := range out {
		d := &out[i]
		d.Doc = fmt.Sprintf("%s (%s)", d.Doc, strings.Join(users[d.Name], ", "))
		if len(defaults[d.Name]) > 1 {
			var parts []string
			for _, p := range users[d.Name] {
				for def, ps := range defaults[d.Name] {
					if ps[0] == p {
						parts = append(parts, def+" for "+strings.Join(ps, ", "))
					}
				}
			}
			d.Doc += "; default " + strings.Join(parts, "; ")
			d.Default = ""
			if _, isBool := defaults[d.Name]["true"]; isBool {
				d.Default = "false" // a bool flag: only --NAME or --NAME=false given counts
			}
		}
	}
	return out
}

// defaultPipeline is fetch's pipeline when -p is not given: the one the
// tournament and the runs through ndnd fw chose (docs/tournament.md, "The
// defaults of `ndncc fetch`").
const defaultPipeline = "paced-delay"

// pipelineParams collects the parameters given on the command line over
// the --profile's, for consumer.ParseParams. Without -p, a profile that
// names a pipeline (ndnget's cubic) selects it.
func (ff *fetchFlags) pipelineParams(fs *pflag.FlagSet) (map[string]string, error) {
	if ff.profile != "" && !fs.Changed("pipeline-type") {
		if p, err := consumer.LookupProfile(ff.profile); err == nil && p.Pipeline != "" {
			ff.pipeline = p.Pipeline
		}
	}
	params := map[string]string{}
	if fs.Changed("pipeline-size") {
		if ff.pipeline != "fixed" {
			return nil, fmt.Errorf("-s/--pipeline-size applies to the fixed pipeline only (-p fixed), not %s", ff.pipeline)
		}
		if ff.size < 1 {
			return nil, fmt.Errorf("-s/--pipeline-size must be at least 1, got %d", ff.size)
		}
		params["window"] = strconv.Itoa(ff.size)
	}
	for _, b := range ff.params {
		if !fs.Changed(b.flag) {
			continue
		}
		v, err := b.value(fs.Lookup(b.flag).Value.String())
		if err != nil {
			return nil, err
		}
		params[b.param] = v
	}
	out, err := consumer.WithProfile(ff.pipeline, ff.profile, params)
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	return out, nil
}

// options parses the pipeline's options from the flags, as the simulator
// parses a scenario consumer's (consumer.WithProfile, ParseParams).
func (ff *fetchFlags) options(fs *pflag.FlagSet) (consumer.Options, error) {
	params, err := ff.pipelineParams(fs)
	if err != nil {
		return consumer.Options{}, err
	}
	return consumer.ParseParams(ff.pipeline, params)
}

// checkNaming accepts ndnget's -N values for the typed naming convention
// (NDN naming conventions rev. 3), the one ndncc speaks.
func checkNaming(v string) error {
	switch v {
	case "", "typed", "t", "2":
		return nil
	case "marker", "m", "1":
		return fmt.Errorf("-N %s: ndncc speaks the typed naming convention only (-N typed, ndnget's default); marker-encoded version and segment components are not supported", v)
	}
	return fmt.Errorf("-N %q is not a naming convention (want typed; ndnget also takes marker)", v)
}

// parseNameArg parses a name given on the command line: an NDN URI, with
// or without the ndn: scheme (ndn:/a/b, ndn:///a/b), as ndn-cxx reads it.
func parseNameArg(s string) (ndn.Name, error) {
	u := s
	if rest, ok := strings.CutPrefix(u, "ndn:"); ok {
		u = rest
		if auth, ok := strings.CutPrefix(u, "//"); ok { // ndn://authority/path: the authority is ignored
			i := strings.IndexByte(auth, '/')
			if i < 0 {
				auth = "/"
				i = 0
			}
			u = auth[i:]
		}
	}
	name, err := ndn.ParseName(u)
	if err == nil && len(name) == 0 {
		err = fmt.Errorf("name %q is empty", s)
	}
	return name, err
}

func runFetch(cmd *cobra.Command, ff *fetchFlags, nameArg string) error {
	if ff.verbose && ff.quiet {
		return usageError(cmd, errors.New("-v and -q exclude each other"))
	}
	name, err := parseNameArg(nameArg)
	if err == nil {
		err = live.CheckName(name)
	}
	if err != nil {
		return usageError(cmd, err)
	}
	if err := checkNaming(ff.naming); err != nil {
		return usageError(cmd, err)
	}
	if err := live.CheckMTU(ff.mtu); err != nil {
		return usageError(cmd, err)
	}
	reconnect, err := parseMillis(ff.reconnect)
	if err != nil {
		return usageError(cmd, fmt.Errorf("--reconnect: %w", err))
	}
	opts, err := ff.options(cmd.Flags())
	if err != nil {
		return usageError(cmd, err)
	}
	verifier, err := ff.verifier(cmd.Flags())
	if err != nil {
		return usageError(cmd, err)
	}
	if ff.asJSON && (ff.output == "" || ff.output == "-") {
		return usageError(cmd, errors.New("--json writes the summary on stdout: give the object a file (-o FILE)"))
	}
	stderr := cmd.ErrOrStderr()
	// The output first: a path that cannot be written fails before any
	// packet is sent, not after the download.
	out, err := openOutput(ff.output, cmd.OutOrStdout())
	if err != nil {
		return &exitError{exitFailure, err}
	}
	defer out.abort()
	tracer, traces, err := ff.tracers(stderr)
	if err != nil {
		return &exitError{exitFailure, err}
	}
	defer traces.close()

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	conn, err := live.Connect(ctx, ff.transport, live.FaceConfig{MTU: ff.mtu, VerifyDigests: true})
	if err != nil {
		if errors.Is(err, live.ErrBadTransport) {
			return usageError(cmd, err)
		}
		return &exitError{exitNoForward, err}
	}
	defer conn.Close()
	conn.KeepAlive(reconnect)
	if ff.verbose {
		fmt.Fprintf(stderr, "Forwarder: %s (from %s)\n", conn.Transport, conn.Source)
	}

	cfg := live.FetchConfig{
		Name:     name,
		Options:  opts,
		Discover: !ff.noDiscovery,
		Output:   out,
		Verifier: verifier,
		Tracer:   tracer,
	}
	if log, ok := tracer.(*live.EventLog); ok {
		cfg.OnPipeline = log.Attach
	}
	if ff.verbose {
		cfg.OnVersion = func(n ndn.Name) { fmt.Fprintf(stderr, "Fetching %s\n", n) }
		cfg.OnReconnect = func() { fmt.Fprintf(stderr, "Reconnected to %s; resuming\n", conn.Transport) }
	}
	bar := newProgress(stderr, !ff.quiet && !ff.verbose && !ff.asJSON)
	cfg.OnProgress = bar.update

	res, err := live.Fetch(ctx, conn.Loop, conn.Endpoint, cfg)
	bar.finish(err == nil)
	if terr := traces.finish(); terr != nil && err == nil {
		err = terr
	}
	if err == nil {
		err = out.commit()
	}
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("interrupted: %w", err)
		}
		return &exitError{exitCodeOf(err), fmt.Errorf("fetch %s: %w", nameArg, err)}
	}
	auth := verifier.Authentication()
	switch {
	case ff.asJSON:
		if err := writeFetchJSON(cmd.OutOrStdout(), res, ff.pipeline, auth); err != nil {
			return &exitError{exitFailure, err}
		}
	case !ff.quiet:
		live.WriteSummary(stderr, res.Stats, res.Bytes, ff.pipeline != "fixed")
		fmt.Fprintf(stderr, "Pipeline: %s\n", ff.pipeline)
		fmt.Fprintf(stderr, "Authentication: %s\n", auth.Summary)
	}
	if ff.verbose {
		writeFaceStats(stderr, res.Face)
		fmt.Fprintf(stderr, "Loop: %d batches of packets handled before due timers; %d catch-ups after stalls (%d gave up waiting); stalled %.3f s in all\n",
			res.Loop.InputFirst, res.Loop.CatchUps, res.Loop.CatchUpTimeouts, res.Loop.Stalled.Seconds())
	}
	return nil
}

// verifier returns the Data verifier --trust (or --cert) asks for.
func (ff *fetchFlags) verifier(fs *pflag.FlagSet) (*live.Verifier, error) {
	trust := ff.trust
	if ff.cert != "" {
		if fs.Changed("trust") && trust != ff.cert {
			return nil, fmt.Errorf("--cert %s and --trust %s: --cert FILE is --trust FILE; give one", ff.cert, trust)
		}
		trust = ff.cert
	}
	v := live.NewVerifier()
	switch trust {
	case "digest":
		return v, v.SetTrust(live.TrustIntegrity)
	case "any":
		return v, v.SetTrust(live.TrustAny)
	case "":
		return nil, errors.New("--trust: want digest, any or a certificate file")
	}
	if err := v.LoadTrustAnchor(trust); err != nil {
		return nil, fmt.Errorf("--trust: %w", err)
	}
	return v, nil
}

// fetchJSON is fetch's --json summary.
type fetchJSON struct {
	Name             string              `json:"name"`
	Pipeline         string              `json:"pipeline"`
	Bytes            uint64              `json:"bytes"`
	Segments         uint64              `json:"segments"`
	ElapsedSeconds   float64             `json:"elapsed_s"`
	GoodputBitPerSec float64             `json:"goodput_bps"`
	Interests        uint64              `json:"interests"`
	Retransmissions  uint64              `json:"retransmissions"`
	Timeouts         uint64              `json:"timeouts"`
	Marks            uint64              `json:"congestion_marks"`
	Nacks            uint64              `json:"nacks"`
	RTTMinMillis     float64             `json:"rtt_min_ms"`
	RTTAvgMillis     float64             `json:"rtt_avg_ms"`
	RTTMaxMillis     float64             `json:"rtt_max_ms"`
	Authentication   live.Authentication `json:"authentication"`
}

// writeFetchJSON writes a finished fetch's summary, with the pipeline
// that ran it, as one JSON document.
func writeFetchJSON(w io.Writer, res live.FetchResult, pipeline string, auth live.Authentication) error {
	st := res.Stats
	elapsed := st.Duration().Seconds()
	doc := fetchJSON{
		Name: res.Name.String(), Pipeline: pipeline, Bytes: res.Bytes, Segments: st.Segments, ElapsedSeconds: elapsed,
		Interests: st.Interests, Retransmissions: st.Retransmissions, Timeouts: st.Timeouts, Marks: st.Marks, Nacks: st.Nacks,
		RTTMinMillis: float64(st.RTTMin) / 1e6, RTTAvgMillis: float64(st.RTTAvg) / 1e6, RTTMaxMillis: float64(st.RTTMax) / 1e6,
		Authentication: auth,
	}
	if elapsed > 0 {
		doc.GoodputBitPerSec = float64(res.Bytes) * 8 / elapsed
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the summary: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// tracers opens the trace logs and wraps them for verbose output; finish
// the returned files (flush and close) when the fetch ends.
func (ff *fetchFlags) tracers(stderr io.Writer) (consumer.Tracer, *traceFiles, error) {
	tf := &traceFiles{}
	var cwnd, rtt io.Writer
	for _, l := range []struct {
		flag, path string
		w          *io.Writer
	}{{"--log-cwnd", ff.logCwnd, &cwnd}, {"--log-rtt", ff.logRTT, &rtt}} {
		if l.path == "" {
			continue
		}
		f, err := os.Create(l.path)
		if err != nil {
			tf.close()
			return nil, nil, fmt.Errorf("%s: %w", l.flag, err)
		}
		tf.files = append(tf.files, f)
		*l.w = f
	}
	var tracer consumer.Tracer
	if cwnd != nil || rtt != nil {
		tf.logs = live.NewTraceLogs(cwnd, rtt)
		tracer = tf.logs
	}
	if ff.verbose {
		tracer = live.NewEventLog(stderr, tracer)
	}
	return tracer, tf, nil
}

// traceFiles are the open --log-cwnd and --log-rtt files.
type traceFiles struct {
	logs  *live.TraceLogs
	files []*os.File
}

// finish flushes and closes the logs and returns the first error.
func (tf *traceFiles) finish() error {
	var err error
	if tf.logs != nil {
		err = tf.logs.Flush()
	}
	if cerr := tf.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write trace logs: %w", err)
	}
	return nil
}

func (tf *traceFiles) close() error {
	var err error
	for _, f := range tf.files {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	tf.files = nil
	return err
}

// output is where the object goes: stdout, or a temporary file renamed to
// its final name only once the whole object is written.
type output struct {
	*bufio.Writer
	file *atomicfile.File // nil for stdout
}

func openOutput(path string, stdout io.Writer) (*output, error) {
	if path == "" || path == "-" {
		return &output{Writer: bufio.NewWriterSize(stdout, 1<<20)}, nil
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create output: %w", err)
	}
	return &output{Writer: bufio.NewWriterSize(f, 1<<20), file: f}, nil
}

// commit flushes the object and moves the file to its final name.
func (o *output) commit() error {
	if err := o.Flush(); err != nil {
		if o.file != nil {
			o.file.Abort()
		}
		return fmt.Errorf("write output: %w", err)
	}
	if o.file == nil {
		return nil
	}
	return o.file.Commit()
}

// abort removes the temporary file of an uncommitted output.
func (o *output) abort() {
	if o.file != nil {
		o.file.Abort()
	}
}

// progress draws a progress bar on a terminal.
type progress struct {
	bar     *progressbar.ProgressBar
	w       io.Writer
	started time.Time
}

func newProgress(w io.Writer, wanted bool) *progress {
	f, ok := w.(*os.File)
	if !wanted || !ok || !term.IsTerminal(int(f.Fd())) {
		return &progress{}
	}
	return &progress{w: w, started: time.Now()}
}

func (p *progress) update(pr live.Progress) {
	if p.w == nil {
		return
	}
	if p.bar == nil {
		if !pr.FinalKnown {
			return
		}
		// The size is estimated from the first segment; it is exact but
		// for the last one.
		est := int64(pr.Bytes) * int64(pr.LastSegment+1) / int64(max(pr.Segments, 1))
		// The bar's own rate counts from its creation, after the first
		// segment: "26 GB/s" at the first tick. The description carries
		// the goodput since the fetch started instead, in the summary's
		// unit (Mbit/s).
		p.bar = progressbar.NewOptions64(est,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription("fetching"),
			progressbar.OptionShowBytes(false),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionFullWidth(),
		)
	}
	if pr.FinalKnown && pr.Segments == pr.LastSegment+1 {
		p.bar.ChangeMax64(int64(pr.Bytes))
	}
	p.bar.Describe(progressText(pr.Bytes, time.Since(p.started)))
	_ = p.bar.Set64(int64(pr.Bytes))
}

// progressText describes a fetch under way: the payload so far and the
// goodput since the start, as the summary reports it (Mbit/s).
func progressText(bytes uint64, elapsed time.Duration) string {
	text := fmt.Sprintf("fetching %.1f MB", float64(bytes)/1e6)
	if elapsed > 0 {
		text += fmt.Sprintf(", %.1f Mbit/s", float64(bytes)*8/elapsed.Seconds()/1e6)
	}
	return text
}

func (p *progress) finish(ok bool) {
	if p.bar == nil {
		return
	}
	if ok {
		_ = p.bar.Finish()
		return
	}
	_ = p.bar.Exit()
	fmt.Fprintln(p.w)
}

// usageError marks err as a bad-arguments error (exit status 2).
func usageError(_ *cobra.Command, err error) error {
	return &exitError{exitUsage, err}
}

// usageArgs makes a positional-argument check a bad-arguments error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError(cmd, err)
		}
		return nil
	}
}

// writeFaceStats reports a face's counters (verbose mode).
func writeFaceStats(w io.Writer, st live.FaceStats) {
	fmt.Fprintf(w, "Face: %d packets in (%d frames, %d bytes), %d packets out (%d frames, %d bytes); dropped %d malformed, %d unsupported, %d fragments; %d send errors\n",
		st.PacketsIn, st.FramesIn, st.BytesIn, st.PacketsOut, st.FramesOut, st.BytesOut,
		st.Malformed, st.Unsupported, st.ReassemblyErrors, st.SendErrors)
}

package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
	"github.com/ndncc/ndncc/topology"
)

// MaxFileBytes bounds an experiment file.
const MaxFileBytes = 1 << 20

// Metrics are the variant-level metrics an experiment file may name in
// `metrics`: each is computed from every run and averaged like a column.
func Metrics() map[string]func(*sim.Network, *sim.Result) map[string]float64 {
	return map[string]func(*sim.Network, *sim.Result) map[string]float64{
		"fairness": fairnessExtra, // Jain's index over the flows' throughputs
	}
}

// LoadFile reads an experiment file (docs/experiments.md): a base
// scenario, named variants as settings of its keys, the table's columns
// and the paper's figures beside ours. Its base scenario file, if named,
// is relative to the experiment file's directory.
func LoadFile(file string) (*Experiment, error) {
	data, err := readFile(file)
	if err != nil {
		return nil, err
	}
	return parseFile(data, file, fileSource{
		load: func(name string) (*scenario.Scenario, error) {
			if !filepath.IsAbs(name) {
				name = filepath.Join(filepath.Dir(file), name)
			}
			return scenario.Load(name)
		},
		open: scenario.DirOpener(filepath.Dir(file)),
	})
}

// LoadFS reads the experiment file name (slash-separated) from fsys, such
// as the examples package's embedded files; its scenario and topology
// files are looked up in fsys too.
func LoadFS(fsys fs.FS, name string) (*Experiment, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("load experiment: %w", err)
	}
	return parseFile(data, name, fileSource{
		load: func(s string) (*scenario.Scenario, error) {
			if !path.IsAbs(s) {
				s = path.Join(path.Dir(name), s)
			}
			return scenario.LoadFS(fsys, s)
		},
		open: scenario.FSOpener(fsys, path.Dir(name)),
	})
}

func readFile(file string) ([]byte, error) {
	st, err := os.Stat(file)
	if err != nil {
		return nil, fmt.Errorf("load experiment: %w", err)
	}
	if !st.Mode().IsRegular() || st.Size() > MaxFileBytes {
		return nil, fmt.Errorf("%s: an experiment file must be a regular file of at most %d KiB", file, MaxFileBytes>>10)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("load experiment: %w", err)
	}
	return data, nil
}

// fileSource finds the files an experiment file names.
type fileSource struct {
	load func(name string) (*scenario.Scenario, error)
	open scenario.Opener
}

// fileDecoder holds the state of one experiment file's decoding.
type fileDecoder struct {
	file string
	pos  map[string]topology.Pos
	errs []error
}

func (d *fileDecoder) at(key string) topology.Pos {
	for k := key; k != ""; {
		if p, ok := d.pos[k]; ok {
			return p
		}
		i := strings.LastIndexAny(k, ".[")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return topology.Pos{File: d.file}
}

func (d *fileDecoder) errorf(key, format string, args ...any) {
	d.errs = append(d.errs, topology.Errorf(d.at(key), key, format, args...))
}

func (d *fileDecoder) known(m map[string]any, path string, keys ...string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(keys, k) {
			p := k
			if path != "" {
				p = path + "." + k
			}
			d.errorf(p, "unknown key (expected one of: %s)", strings.Join(keys, ", "))
		}
	}
}

func (d *fileDecoder) str(m map[string]any, path, key string, dst *string) {
	v, ok := m[key]
	if !ok {
		return
	}
	s, ok := v.(string)
	if !ok {
		d.errorf(join(path, key), "expected a string, got %T", v)
		return
	}
	*dst = s
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// parseFile decodes an experiment file.
func parseFile(data []byte, file string, src fileSource) (*Experiment, error) {
	var m map[string]any
	if err := toml.Unmarshal(data, &m); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, _ := de.Position()
			return nil, topology.Errorf(topology.Pos{File: file, Line: row}, strings.Join(de.Key(), "."), "%s", strings.TrimPrefix(de.Error(), "toml: "))
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	d := &fileDecoder{file: file, pos: scenario.Positions(data, file)}
	d.known(m, "", "name", "title", "description", "paper", "runs", "profile", "processing-time", "notes", "scenario", "set", "column", "metrics", "variant", "input")
	e := &Experiment{Name: strings.TrimSuffix(path.Base(filepath.ToSlash(file)), ".toml"), Runs: 1, Source: file}
	d.str(m, "", "name", &e.Name)
	d.str(m, "", "title", &e.Title)
	d.str(m, "", "description", &e.Description)
	d.str(m, "", "paper", &e.Seed)
	d.str(m, "", "profile", &e.Profile)
	d.str(m, "", "notes", &e.Notes)
	if v, ok := m["processing-time"]; ok {
		if b, isBool := v.(bool); !isBool {
			d.errorf("processing-time", "want true or false, got %v", v)
		} else {
			e.NoProcessingTime = !b
		}
	}
	if v, ok := m["runs"]; ok {
		n, isInt := v.(int64)
		if !isInt || n < 1 || n > 10000 {
			d.errorf("runs", "want an integer from 1 to 10000, got %v", v)
		} else {
			e.Runs = int(n)
		}
	}
	base := d.baseScenario(m, file, src)
	common := d.assignments(m["set"], "set")
	e.Columns = d.columns(m["column"])
	e.Inputs = d.inputs(m["input"])
	extras := d.metrics(m["metrics"])
	d.variants(e, m["variant"], base, common, extras)
	if len(d.errs) > 0 {
		return nil, topology.JoinErrors(d.errs)
	}
	// Build every variant once, so that a bad setting is an error now.
	for _, v := range e.Variants {
		if _, err := v.Scenario(); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// baseScenario reads `scenario`: a scenario file's name, or an inline
// table with a scenario file's keys.
func (d *fileDecoder) baseScenario(m map[string]any, file string, src fileSource) *scenario.Scenario {
	switch v := m["scenario"].(type) {
	case nil:
		d.errorf("scenario", "required: a scenario file (scenario = \"FILE.toml\") or an inline [scenario] table")
	case string:
		sc, err := src.load(v)
		if err != nil {
			d.errs = append(d.errs, &topology.Error{Pos: d.at("scenario"), Field: "scenario", Err: err})
			return nil
		}
		return sc
	case map[string]any:
		sc, err := scenario.ParseTable(v, file, "scenario", d.pos, src.open)
		if err != nil {
			d.errs = append(d.errs, err)
			return nil
		}
		if _, named := v["name"]; !named {
			sc.Name = ""
		}
		return sc
	default:
		d.errorf("scenario", "expected a file name or a table, got %T", v)
	}
	return nil
}

// assignments flattens a table of settings into dotted keys, in sorted
// order: {links: {"r1-r2": {max-queue-size: 64}}} and
// {"links.r1-r2.max-queue-size" = 64} are the same setting.
func (d *fileDecoder) assignments(v any, path string) []scenario.Assignment {
	if v == nil {
		return nil
	}
	t, ok := v.(map[string]any)
	if !ok {
		d.errorf(path, "expected a table of settings (KEY = VALUE, as `ndncc sim --set`), got %T", v)
		return nil
	}
	var out []scenario.Assignment
	var walk func(prefix, posPath string, t map[string]any)
	walk = func(prefix, posPath string, t map[string]any) {
		for _, k := range slices.Sorted(maps.Keys(t)) {
			key, pp := join(prefix, k), join(posPath, k)
			switch x := t[k].(type) {
			case map[string]any:
				walk(key, pp, x)
			case string, int64, float64, bool:
				out = append(out, scenario.Assignment{Key: key, Value: x, Pos: d.at(pp)})
			default:
				d.errorf(pp, "expected a string, number or boolean, got %T", x)
			}
		}
	}
	walk("", path, t)
	return out
}

// columns reads [[column]].
func (d *fileDecoder) columns(v any) []Column {
	arr, ok := v.([]map[string]any)
	if !ok {
		if v == nil {
			return DefaultSweepColumns()
		}
		if a, isArr := v.([]any); isArr {
			for _, el := range a {
				if t, isTable := el.(map[string]any); isTable {
					arr = append(arr, t)
				}
			}
			ok = len(arr) == len(a)
		}
	}
	if !ok {
		d.errorf("column", "expected [[column]] tables")
		return nil
	}
	var out []Column
	for i, t := range arr {
		p := fmt.Sprintf("column[%d]", i)
		d.known(t, p, "key", "header", "format")
		c := Column{}
		d.str(t, p, "key", &c.Key)
		d.str(t, p, "header", &c.Header)
		d.str(t, p, "format", &c.Format)
		if c.Key == "" {
			d.errorf(p, "needs a key (a flow metric of docs/results.md, or a metric of metrics)")
		}
		if c.Header == "" {
			c.Header = c.Key
		}
		if c.Format != "" && !strings.HasPrefix(c.Format, "%") {
			d.errorf(p+".format", "want a fmt verb such as %%.1f, got %q", c.Format)
		}
		out = append(out, c)
	}
	return out
}

// inputs reads [[input]]: name, value and source of each input.
func (d *fileDecoder) inputs(v any) []Input {
	if v == nil {
		return nil
	}
	var arr []map[string]any
	switch a := v.(type) {
	case []map[string]any:
		arr = a
	case []any:
		for _, el := range a {
			t, ok := el.(map[string]any)
			if !ok {
				d.errorf("input", "expected [[input]] tables")
				return nil
			}
			arr = append(arr, t)
		}
	default:
		d.errorf("input", "expected [[input]] tables")
		return nil
	}
	var out []Input
	for i, t := range arr {
		p := fmt.Sprintf("input[%d]", i)
		d.known(t, p, "name", "value", "source")
		var in Input
		d.str(t, p, "name", &in.Name)
		d.str(t, p, "value", &in.Value)
		d.str(t, p, "source", &in.Source)
		if in.Name == "" || in.Value == "" || in.Kind() == "" {
			d.errorf(p, "needs a name, a value and a source starting with one of %q", SourceKinds)
		}
		out = append(out, in)
	}
	return out
}

// metrics reads `metrics`, the names of variant-level metrics.
func (d *fileDecoder) metrics(v any) []string {
	if v == nil {
		return nil
	}
	arr, _ := v.([]any)
	var out []string
	for i, el := range arr {
		s, ok := el.(string)
		if _, known := Metrics()[s]; !ok || !known {
			d.errorf(fmt.Sprintf("metrics[%d]", i), "unknown metric %v (have %s)", el, strings.Join(slices.Sorted(maps.Keys(Metrics())), ", "))
			continue
		}
		out = append(out, s)
	}
	if arr == nil {
		d.errorf("metrics", "expected a list of metric names")
	}
	return out
}

// variants reads [[variant]].
func (d *fileDecoder) variants(e *Experiment, v any, base *scenario.Scenario, common []scenario.Assignment, extras []string) {
	arr, _ := v.([]any)
	if len(arr) == 0 {
		d.errorf("variant", "the experiment has no [[variant]]")
		return
	}
	seen := map[string]bool{}
	for i, el := range arr {
		p := fmt.Sprintf("variant[%d]", i)
		t, ok := el.(map[string]any)
		if !ok {
			d.errorf(p, "expected a table")
			continue
		}
		d.known(t, p, "name", "description", "set", "paper")
		var vr Variant
		d.str(t, p, "name", &vr.Name)
		d.str(t, p, "description", &vr.Description)
		switch {
		case vr.Name == "":
			d.errorf(p, "needs a name")
		case seen[vr.Name]:
			d.errorf(p+".name", "variant %q is defined twice", vr.Name)
		case strings.ContainsAny(vr.Name, `/\ `) || strings.HasPrefix(vr.Name, "."):
			d.errorf(p+".name", "variant %q names a directory of plots: no slash, space or leading dot", vr.Name)
		}
		seen[vr.Name] = true
		own := d.assignments(t["set"], p+".set")
		vr.SeedFigures = d.figures(t["paper"], p+".paper")
		if base != nil {
			vr.Scenario = variantScenario(base, append(slices.Clone(common), own...), e.Name+"-"+vr.Name)
		}
		if len(extras) > 0 {
			vr.Extra = combineMetrics(extras)
		}
		e.Variants = append(e.Variants, vr)
	}
}

// variantScenario builds a variant: the base with the settings applied.
func variantScenario(base *scenario.Scenario, sets []scenario.Assignment, name string) func() (*scenario.Scenario, error) {
	return func() (*scenario.Scenario, error) {
		sc := base.Clone()
		if sc.Name == "" {
			sc.Name = name
		}
		if err := sc.Apply(sets); err != nil {
			return nil, err
		}
		if err := sc.Validate(); err != nil {
			return nil, err
		}
		return sc, nil
	}
}

// combineMetrics computes the named metrics of a run.
func combineMetrics(names []string) func(*sim.Network, *sim.Result) map[string]float64 {
	return func(net *sim.Network, r *sim.Result) map[string]float64 {
		out := map[string]float64{}
		for _, n := range names {
			maps.Copy(out, Metrics()[n](net, r))
		}
		return out
	}
}

// figures reads a variant's paper figures: per column key, a value or a
// list of one value per flow; a value is a number, a text such as
// "23.8–23.9" (a range) or "~5", or a range as {min = 23.8, max = 23.9}.
func (d *fileDecoder) figures(v any, path string) map[string][]string {
	if v == nil {
		return nil
	}
	t, ok := v.(map[string]any)
	if !ok {
		d.errorf(path, "expected a table of figures by column key, got %T", v)
		return nil
	}
	out := map[string][]string{}
	for _, k := range slices.Sorted(maps.Keys(t)) {
		kp := path + "." + k
		vals, isList := t[k].([]any)
		if !isList {
			vals = []any{t[k]}
		}
		for i, x := range vals {
			s, err := figureText(x)
			if err != nil {
				p := kp
				if isList {
					p = fmt.Sprintf("%s[%d]", kp, i)
				}
				d.errorf(p, "%v", err)
			}
			out[k] = append(out[k], s)
		}
	}
	return out
}

// figureText writes one paper figure as the tables print it.
func figureText(x any) (string, error) {
	num := func(v any) (float64, bool) {
		switch n := v.(type) {
		case int64:
			return float64(n), true
		case float64:
			return n, !math.IsNaN(n) && !math.IsInf(n, 0)
		}
		return 0, false
	}
	switch v := x.(type) {
	case string:
		return v, nil
	case int64, float64:
		f, ok := num(v)
		if !ok {
			return "", fmt.Errorf("want a finite number, got %v", v)
		}
		return strconv.FormatFloat(f, 'g', -1, 64), nil
	case map[string]any:
		lo, okLo := num(v["min"])
		hi, okHi := num(v["max"])
		if !okLo || !okHi || len(v) != 2 || lo > hi {
			return "", fmt.Errorf("want a range {min = A, max = B} with A <= B, got %v", v)
		}
		return strconv.FormatFloat(lo, 'g', -1, 64) + "–" + strconv.FormatFloat(hi, 'g', -1, 64), nil
	}
	return "", fmt.Errorf("want a number, a text or {min, max}, got %T", x)
}

// Figure is a paper's figure for one cell of a table: the text as the
// paper gives it, and its range when it is a number or a range of numbers.
type Figure struct {
	Text     string
	Min, Max float64
	Numeric  bool
}

// ParseFigure reads a paper figure: "23.8", "23.8–23.9" (an en dash or a
// hyphen between two numbers) or any other text (not numeric). A figure in
// parentheses, "(22435)", is shown but not numeric, so not compared or
// counted: a figure that is not in the paper's text, or one counted in
// another row.
func ParseFigure(text string) Figure {
	f := Figure{Text: text}
	t := strings.TrimSpace(text)
	if x, err := strconv.ParseFloat(t, 64); err == nil {
		f.Min, f.Max, f.Numeric = x, x, true
		return f
	}
	for _, sep := range []string{"–", "-"} {
		i := strings.Index(t[min(1, len(t)):], sep) // not a leading minus
		if i < 0 {
			continue
		}
		i += min(1, len(t))
		lo, err1 := strconv.ParseFloat(strings.TrimSpace(t[:i]), 64)
		hi, err2 := strconv.ParseFloat(strings.TrimSpace(t[i+len(sep):]), 64)
		if err1 == nil && err2 == nil && lo <= hi {
			f.Min, f.Max, f.Numeric = lo, hi, true
			return f
		}
	}
	return f
}

package scenario

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/ndncc/ndncc/topology"
)

// Load reads the scenario file named file (see Parse); it must be at most
// MaxFileBytes long.
func Load(file string) (*Scenario, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("load scenario: %w", err)
	}
	defer f.Close()
	data, err := readScenario(f, file)
	if err != nil {
		return nil, err
	}
	return Parse(data, file)
}

// readScenario reads a scenario file, refusing one over MaxFileBytes
// before reading it (when its size is known) or once past the limit.
func readScenario(f fs.File, file string) ([]byte, error) {
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > MaxFileBytes {
		return nil, topology.Errorf(topology.Pos{File: file}, "", "the scenario file is %d bytes, over the %d MiB limit", st.Size(), MaxFileBytes>>20)
	}
	data, err := readLimited(f, MaxFileBytes, "the scenario file")
	if err != nil {
		return nil, &topology.Error{Pos: topology.Pos{File: file}, Err: err}
	}
	return data, nil
}

// LoadReader reads a scenario from r (standard input, for `ndncc sim -`),
// at most MaxFileBytes; name names it in errors and as the scenario's
// default name, and a relative topology file is looked up in the current
// directory.
func LoadReader(r io.Reader, name string) (*Scenario, error) {
	data, err := readLimited(r, MaxFileBytes, "the scenario")
	if err != nil {
		return nil, &topology.Error{Pos: topology.Pos{File: name}, Err: err}
	}
	d := &decoder{file: name, open: DirOpener(".")}
	return d.parse(data)
}

// LoadFS reads the scenario file name (a slash-separated path) from fsys,
// such as the examples package's embedded files; a relative topology file
// is looked up in fsys too, next to name. Otherwise it is Parse.
func LoadFS(fsys fs.FS, name string) (*Scenario, error) {
	sf, err := fsys.Open(name)
	if err != nil {
		return nil, fmt.Errorf("load scenario: %w", err)
	}
	defer sf.Close()
	data, err := readScenario(sf, name)
	if err != nil {
		return nil, err
	}
	d := &decoder{file: name, open: FSOpener(fsys, path.Dir(name))}
	return d.parse(data)
}

// Parse decodes and validates a scenario file (the schema is in the package
// doc). file names it in error messages, and its directory is where a
// relative topology file is looked up (the current directory when file is
// ""). Defaults fill every key left out; unknown keys are errors. Every
// error reads "file:line: field: message", at the line of the offending
// key; all the problems found are reported, joined in line order.
func Parse(data []byte, file string) (*Scenario, error) {
	d := &decoder{file: file, open: DirOpener(filepath.Dir(file))}
	return d.parse(data)
}

// parse decodes data with d and validates the result.
func (d *decoder) parse(data []byte) (*Scenario, error) {
	if len(data) > MaxFileBytes {
		return nil, topology.Errorf(topology.Pos{File: d.file}, "", "the scenario is %d bytes, over the %d MiB limit", len(data), MaxFileBytes>>20)
	}
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		return nil, syntaxError(err, d.file)
	}
	d.pos = keyPositions(data, d.file)
	return d.decode(raw)
}

// decode decodes a scenario's TOML tree and validates the result.
func (d *decoder) decode(m map[string]any) (*Scenario, error) {
	s := d.scenario(m)
	if len(d.errs) > 0 {
		return nil, topology.JoinErrors(d.errs)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// syntaxError converts a TOML decoding error into a positioned Error.
func syntaxError(err error, file string) error {
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return &topology.Error{Pos: topology.Pos{File: file}, Field: "toml", Err: err}
	}
	row, _ := de.Position()
	field := strings.Join(de.Key(), ".")
	if field == "" {
		field = "toml"
	}
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	return topology.Errorf(topology.Pos{File: file, Line: row}, field, "%s", msg)
}

// Opener opens a topology file named in a scenario and returns it with
// its resolved name (for error messages).
type Opener func(name string) (fs.File, string, error)

// DirOpener resolves a relative topology file name against dir.
func DirOpener(dir string) Opener {
	return func(name string) (fs.File, string, error) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		f, err := os.Open(name)
		return f, name, err
	}
}

// FSOpener resolves a relative topology file name against dir in fsys
// (slash-separated paths, such as the examples package's embedded files).
func FSOpener(fsys fs.FS, dir string) Opener {
	return func(name string) (fs.File, string, error) {
		if !path.IsAbs(name) {
			name = path.Join(dir, name)
		}
		f, err := fsys.Open(name)
		return f, name, err
	}
}

// Positions maps every key and array element of a TOML document (valid
// TOML) to its line: keys joined with ".", elements as "[i]", as error
// messages name fields.
func Positions(data []byte, file string) map[string]topology.Pos { return keyPositions(data, file) }

// ParseTable decodes and validates a scenario given as an already decoded
// TOML table, such as the [scenario] table of an experiment file: prefix
// is the table's key path in the file ("scenario"), pos the file's
// Positions, and open finds topology files. Errors read like Parse's, at
// the lines of the file.
func ParseTable(m map[string]any, file, prefix string, pos map[string]topology.Pos, open Opener) (*Scenario, error) {
	sub := map[string]topology.Pos{}
	for k, p := range pos {
		if rest, ok := strings.CutPrefix(k, prefix+"."); ok {
			sub[rest] = p
		}
	}
	d := &decoder{file: file, open: open, pos: sub}
	return d.decode(m)
}

// IsTopologyFile reports whether file names a Mini-NDN topology (.conf)
// rather than a scenario (.toml).
func IsTopologyFile(file string) bool { return strings.EqualFold(filepath.Ext(file), ".conf") }

// FromTopologyFile returns a scenario of the Mini-NDN topology file and
// every default, with no producer or consumer: the network alone, for
// `ndncc emu FILE.conf --hold`. It is not validated as a scenario to run
// (it has no flow); the topology's own errors are reported as Load's.
func FromTopologyFile(file string) (*Scenario, error) {
	d := &decoder{file: file, open: DirOpener(".")}
	t, resolved := d.topologyFile(file, "topology.file")
	if len(d.errs) > 0 {
		return nil, topology.JoinErrors(d.errs)
	}
	s := Default()
	s.File, s.NetworkOnly = file, true
	s.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	s.Topology, s.TopologyFile = t, resolved
	return s, nil
}

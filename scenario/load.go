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

// Load reads the scenario file named file (see Parse).
func Load(file string) (*Scenario, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("load scenario: %w", err)
	}
	return Parse(data, file)
}

// LoadFS reads the scenario file name (a slash-separated path) from fsys,
// such as the examples package's embedded files; a relative topology file
// is looked up in fsys too, next to name. Otherwise it is Parse.
func LoadFS(fsys fs.FS, name string) (*Scenario, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("load scenario: %w", err)
	}
	d := &decoder{file: name, open: func(file string) (io.ReadCloser, string, error) {
		if !path.IsAbs(file) {
			file = path.Join(path.Dir(name), file)
		}
		f, err := fsys.Open(file)
		return f, file, err
	}}
	return d.parse(data)
}

// Parse decodes and validates a scenario file (the schema is in the package
// doc). file names it in error messages, and its directory is where a
// relative topology file is looked up (the current directory when file is
// ""). Defaults fill every key left out; unknown keys are errors. Every
// error reads "file:line: field: message", at the line of the offending
// key; all the problems found are reported, joined in line order.
func Parse(data []byte, file string) (*Scenario, error) {
	dir := filepath.Dir(file)
	d := &decoder{file: file, open: func(name string) (io.ReadCloser, string, error) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		f, err := os.Open(name)
		return f, name, err
	}}
	return d.parse(data)
}

// parse decodes data with d and validates the result.
func (d *decoder) parse(data []byte) (*Scenario, error) {
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		return nil, syntaxError(err, d.file)
	}
	d.pos = keyPositions(data, d.file)
	s := d.scenario(raw)
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

// Package atomicfile writes files so that their final name only ever holds
// a complete file: the data go to a temporary file in the same directory,
// which is renamed over the final name once it is complete, and removed if
// anything fails.
//
// The final file gets the mode of the file it replaces, or 0666 less the
// umask for a new one, as os.Create would give it. A temporary file is
// named ".NAME.tmp-PID-RANDOM"; Create removes those of NAME whose process
// is gone (killed before it could clean up).
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// File is a file being written under a temporary name.
type File struct {
	*os.File
	final string
	mode  fs.FileMode
	done  bool
}

// Create starts writing the file that will be called path. It fails at
// once if path names something that is not a regular file (a directory),
// rather than after the data are written.
func Create(path string) (*File, error) {
	mode := 0o666 &^ umask()
	switch st, err := os.Stat(path); {
	case err == nil && !st.Mode().IsRegular():
		return nil, fmt.Errorf("create %s: it exists and is not a regular file (%s)", path, describe(st.Mode()))
	case err == nil:
		mode = st.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	removeStale(dir, base)
	f, err := os.CreateTemp(dir, tempPrefix(base)+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return &File{File: f, final: path, mode: mode}, nil
}

// tempPrefix is how the temporary files of base begin.
func tempPrefix(base string) string { return "." + base + ".tmp-" }

// removeStale removes the temporary files of base in dir left by
// processes that no longer run.
func removeStale(dir, base string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := tempPrefix(base)
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		if pid, err := strconv.Atoi(pidText); err == nil && pid > 0 && !running(pid) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// describe names a file type that is not a regular file.
func describe(m fs.FileMode) string {
	if m.IsDir() {
		return "a directory"
	}
	return "type " + m.Type().String()
}

// Commit syncs and closes the file and gives it its final name and mode.
// On failure the temporary file is removed.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("write %s: already committed or aborted", f.final)
	}
	f.done = true
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), f.mode)
	}
	if err == nil {
		err = os.Rename(f.Name(), f.final)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", f.final, err)
	}
	return nil
}

// Abort closes and removes the temporary file; the final name is left
// untouched. It does nothing after Commit.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.Close()
	os.Remove(f.Name())
}

// WriteFile writes data to path atomically.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

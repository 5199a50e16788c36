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

// File is a file being written under a temporary name (or, for a device
// or a named pipe, under its own).
type File struct {
	*os.File
	final string
	mode  fs.FileMode
	done  bool
	// direct says the final name is written in place (a device or a
	// named pipe): Commit and Abort only close it.
	direct bool
}

// Create starts writing the file that will be called path. It fails at
// once if path names something that can be neither replaced nor written
// in place (a directory, a socket), rather than after the data are
// written.
func Create(path string) (*File, error) {
	mode := 0o666 &^ umask()
	switch st, err := os.Stat(path); {
	case err == nil && writableInPlace(st.Mode()):
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("create %s: %w", path, err)
		}
		return &File{File: f, final: path, direct: true}, nil
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
	// Held until the file is renamed or removed; the kernel drops it when
	// the process dies, however it dies.
	lock(f)
	return &File{File: f, final: path, mode: mode}, nil
}

// writableInPlace reports whether a file of mode m is written as it is
// rather than replaced: a character device (/dev/null, a terminal) or a
// named pipe.
func writableInPlace(m fs.FileMode) bool {
	return m&fs.ModeCharDevice != 0 || m&fs.ModeNamedPipe != 0
}

// tempPrefix is how the temporary files of base begin.
func tempPrefix(base string) string { return "." + base + ".tmp-" }

// removeStale removes the temporary files of base in dir left by
// writers that are gone: no process holds the file's lock, and the
// process its name carries no longer runs (or is a zombie). A file whose
// lock cannot be probed is judged by its process alone.
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
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || running(pid) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		if lockFree(f) {
			os.Remove(path)
		}
		f.Close()
	}
}

// describe names a file type that is not a regular file.
func describe(m fs.FileMode) string {
	if m.IsDir() {
		return "a directory"
	}
	return "type " + m.Type().String()
}

// Commit syncs and closes the file and gives it its final name and mode
// (a device or a named pipe is only closed). On failure the temporary
// file is removed.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("write %s: already committed or aborted", f.final)
	}
	f.done = true
	if f.direct {
		if err := f.Close(); err != nil {
			return fmt.Errorf("write %s: %w", f.final, err)
		}
		return nil
	}
	// Renamed before it is closed: the lock, held until then, keeps a
	// concurrent Create of the same name from taking it for stale.
	err := f.Sync()
	if err == nil {
		err = f.Chmod(f.mode)
	}
	if err == nil {
		err = os.Rename(f.Name(), f.final)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", f.final, err)
	}
	return nil
}

// Abort closes and removes the temporary file; the final name is left
// untouched (a device or a named pipe is only closed). It does nothing
// after Commit.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	if f.direct {
		f.Close()
		return
	}
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

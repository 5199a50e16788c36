// Package atomicfile writes files so that their final name only ever holds
// a complete file: the data go to a temporary file in the same directory,
// which is renamed over the final name once it is complete, and removed if
// anything fails.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// File is a file being written under a temporary name.
type File struct {
	*os.File
	final string
	done  bool
}

// Create starts writing the file that will be called path.
func Create(path string) (*File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	return &File{File: f, final: path}, nil
}

// Commit syncs and closes the file and gives it its final name
// (permissions 0644). On failure the temporary file is removed.
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
		err = os.Chmod(f.Name(), 0o644)
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

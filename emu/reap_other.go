//go:build !linux

package emu

import "errors"

// BecomeSubreaper is Linux only.
func BecomeSubreaper() error { return errors.New("child subreapers are Linux only") }

// reapOrphans has nothing to do without a subreaper.
func reapOrphans() {}

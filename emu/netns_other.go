//go:build !linux

package emu

import (
	"errors"
	"syscall"
)

// netns is a network namespace: Linux only.
type netns struct{}

func newNetns() (*netns, error)             { return nil, errTunnels }
func (ns *netns) do(fn func() error) error  { return errTunnels }
func (ns *netns) close()                    {}
func tunnelSupport() error                  { return errTunnels }
func command(args ...string) error          { return errTunnels }
func tuneSocket(syscall.Conn, int) error    { return errTunnels }
func tuneProcessSocket(int, int, int) error { return errTunnels }

var errTunnels = errors.New("TCP tunnels run live on Linux only (network namespaces, tc)")

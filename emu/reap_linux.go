package emu

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// BecomeSubreaper makes the calling process a child subreaper
// (PR_SET_CHILD_SUBREAPER): a program that leaves its process group and
// session (setsid) and whose parent ends is then re-parented to this
// process rather than to init, so that the end of a run finds and stops
// it. A process-wide setting: `ndncc emu` calls it, the library does not.
func BecomeSubreaper() error {
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// reapOrphans stops what programs left behind in sessions of their own:
// the children of this process (a subreaper, else there are none) that
// are in another session than it — nothing the emulator starts leaves
// its session; a program that calls setsid does — with SIGTERM, then
// SIGKILL after killGrace, and reaps them. Their own children come to
// this process in turn, so it repeats until none is left.
func reapOrphans() {
	var flag int32
	if err := unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&flag)), 0, 0, 0); err != nil || flag == 0 {
		return
	}
	self := os.Getpid()
	sid, err := unix.Getsid(0)
	if err != nil {
		return
	}
	for round := 0; round < 10; round++ {
		orphans := foreignChildren(self, sid)
		if len(orphans) == 0 {
			return
		}
		for _, pid := range orphans {
			syscall.Kill(pid, syscall.SIGTERM)
		}
		deadline := time.Now().Add(killGrace)
		for _, pid := range orphans {
			for !reaped(pid) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if !reaped(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				var ws syscall.WaitStatus
				syscall.Wait4(pid, &ws, 0, nil)
			}
		}
	}
}

// reaped waits for pid without blocking and reports whether it is gone.
func reaped(pid int) bool {
	var ws syscall.WaitStatus
	got, err := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
	return got == pid || err != nil
}

// foreignChildren lists the children of process self whose session is
// not sid.
func foreignChildren(self, sid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp session ...: comm may hold spaces.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 4 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		session, _ := strconv.Atoi(f[3])
		if ppid == self && session != sid {
			out = append(out, pid)
		}
	}
	return out
}

"""Runs package sha256batch's vector code on an emulated processor with
AVX-512 (BochsCPU, pip install bochscpu-python), for processors without it.

    go test -c -o /tmp/sha256batch.test ./internal/sha256batch
    SHA256BATCH_EMULATOR_CALLS=/tmp/calls.json /tmp/sha256batch.test -test.run EmulatorCalls
    python3 internal/sha256batch/testdata/emulate.py /tmp/sha256batch.test /tmp/calls.json

It maps the test binary's code and read-only data into the emulator, and
for every call in the file (TestEmulatorCalls) calls blocks16 or blocks8
with each lane's blocks at the end of its own mapping, nothing mapped after
it. It checks that the state the vector code leaves is the model's, that
the call returns without a fault, and that it reads no data but the n*64
bytes from each lane's pointer on (n*64 bytes a lane in all). CONTROL=past puts the last
lane's blocks 64 bytes into the unmapped page (the run must fault there);
CONTROL=want changes the model's result (every call must differ);
CONTROL=idle gives each idle lane (a lane without a message) 64 bytes at
the end of its mapping, as the old code pointed idle lanes at a 64-byte
block at the end of the Hasher: every call of more than one block with an
idle lane must fault.

The wheel of bochscpu-python 0.4.0 needs glibc 2.38 (__isoc23_strtoull,
__isoc23_sscanf); on an older glibc, LD_PRELOAD a library defining those
two as strtoull and vsscanf.
"""
import collections
import json
import os
import struct
import subprocess
import sys

import bochscpu
import bochscpu.cpu
import bochscpu.memory
import bochscpu.utils

PAGE = 4096
PML4 = 0x10_0000
CODE, DATA_RW = 0, 1
STACK, STATE, PTRS, LANES = 0x7000_0000_0000, 0x7100_0000_0000, 0x7200_0000_0000, 0x7300_0000_0000
LANE_STRIDE = 0x1_0000_0000
LANE_PAGES = 4  # up to 256 blocks a lane
CONTROL = os.environ.get("CONTROL", "")


def main(binary, calls_path):
    calls = json.load(open(calls_path))
    pt = bochscpu.memory.PageMapLevel4Table()
    next_pa = [0x100_0000]

    def map_page(va, perm):
        pa = next_pa[0]
        next_pa[0] += PAGE
        pt.insert(va, pa, perm)
        bochscpu.memory.page_insert(pa, bochscpu.memory.allocate_host_page())

    # The binary's loadable segments below its writable data: code and
    # read-only data (the round constants, the byte-swap control).
    elf = open(binary, "rb").read()
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    segments = []
    for i in range(phnum):
        p_type, p_flags, p_offset, p_vaddr, _, p_filesz, _, _ = struct.unpack_from("<IIQQQQQQ", elf, phoff + i * phentsize)
        if p_type == 1 and not p_flags & 2:  # PT_LOAD, not writable
            segments.append((p_vaddr, elf[p_offset : p_offset + p_filesz], p_flags))
    for va, data, flags in segments:
        for page in range(va & ~(PAGE - 1), va + len(data), PAGE):
            map_page(page, CODE if flags & 1 else DATA_RW)
    for va in (STACK, STATE, PTRS):
        map_page(va, DATA_RW)
    for lane in range(16):
        for p in range(LANE_PAGES):
            map_page(LANES + lane * LANE_STRIDE + p * PAGE, DATA_RW)
    for hva, gpa in pt.commit(PML4):
        bochscpu.memory.page_insert(gpa, hva)
    for va, data, _ in segments:
        assert bochscpu.memory.virt_write(PML4, va, bytearray(data))

    functions = {}
    nm = subprocess.run(["go", "tool", "nm", binary], capture_output=True, text=True, check=True).stdout
    for line in nm.splitlines():
        f = line.split()
        for lanes, name in ((16, "sha256batch.blocks16.abi0"), (8, "sha256batch.blocks8.abi0")):
            if len(f) == 3 and f[2].endswith(name):
                functions[lanes] = int(f[0], 16)
    ret = segments[0][0]  # any mapped address: the run stops when RIP reaches it

    session = bochscpu.Session()

    def missing_page(gpa):
        raise Exception(f"missing page {gpa:#x}")

    session.missing_page_handler = missing_page
    reads, faults = [], []

    def lin_access(sess, cpu, lin, phy, length, rw, access):
        if lin >= LANES:
            reads.append((lin, length, rw))

    def after_execution(sess, cpu, _):
        if sess.cpu.rip == ret:
            sess.stop()

    def exception(sess, cpu, vector, error):
        faults.append(f"exception {vector} (error {error}) at {sess.cpu.rip:#x}, address {sess.cpu.cr2:#x}")
        sess.stop()

    hook = bochscpu.Hook()
    hook.lin_access = lin_access
    hook.after_execution = after_execution
    hook.exception = exception

    bad = 0
    for c in calls:
        lanes, n = c["lanes"], c["n"]
        size = n * 64
        ptrs = [0] * 16
        for lane in range(lanes):
            ptrs[lane] = LANES + lane * LANE_STRIDE + LANE_PAGES * PAGE - size
            data = bytes.fromhex(c["data"][lane])
            if CONTROL == "past" and lane == lanes - 1:
                ptrs[lane] += 64
                data = data[:-64]
            if CONTROL == "idle" and lane in c.get("idle", []):
                ptrs[lane] = LANES + lane * LANE_STRIDE + LANE_PAGES * PAGE - 64
                data = data[:64]
            assert bochscpu.memory.virt_write(PML4, ptrs[lane], bytearray(data))
        want = bytes.fromhex(c["want"])
        if CONTROL == "want":
            want = bytes([want[0] ^ 1]) + want[1:]
        assert bochscpu.memory.virt_write(PML4, STATE, bytearray(bytes.fromhex(c["state"])))
        assert bochscpu.memory.virt_write(PML4, PTRS, bytearray(struct.pack("<16Q", *ptrs)))
        # ABI0: the return address, then the arguments on the stack.
        assert bochscpu.memory.virt_write(PML4, STACK + 0x800, bytearray(struct.pack("<QQQQ", ret, STATE, PTRS, n)))
        reads.clear()
        faults.clear()
        session.cpu.state = cpu_state(functions[lanes])
        session.run([hook])

        problems = list(faults)
        if session.cpu.rip != ret:
            problems.append(f"stopped at {session.cpu.rip:#x}")
        if bytes(bochscpu.memory.virt_read(PML4, STATE, 512)) != want:
            problems.append("the state differs from the model's")
        read = [0] * 16
        for lin, length, rw in reads:
            lane = (lin - LANES) // LANE_STRIDE
            if rw != 0 or not ptrs[lane] <= lin <= lin + length <= ptrs[lane] + size:
                problems.append(f"lane {lane}: access of {length} bytes at {lin - ptrs[lane]:+d} (rw {rw})")
            else:
                read[lane] += length
        if read[:lanes] != [size] * lanes:
            problems.append(f"bytes read per lane {read[:lanes]}, want {size} each")
        if problems:
            bad += 1
            print(f"{lanes} lanes, {n} blocks: " + "; ".join(problems[:4]))
    counts = sorted(collections.Counter((c["lanes"], c["n"]) for c in calls).items())
    print(f"calls by (lanes, blocks): {counts}")
    if CONTROL == "idle":
        expect = sum(1 for c in calls if c["n"] > 1 and c.get("idle"))
        print(f"{expect} calls run more than one block with an idle lane")
    print(f"{len(calls) - bad} of {len(calls)} calls leave the model's state and read only their lanes' blocks")
    return 1 if bad else 0


def cpu_state(rip):
    """A long-mode processor with SSE, AVX and AVX-512 state enabled."""
    st = bochscpu.State()
    bochscpu.cpu.set_long_mode(st)
    cr0 = bochscpu.utils.cpu.CR0(st.cr0)
    cr4 = bochscpu.utils.cpu.CR4(st.cr4)
    cr0.MP, cr0.EM = True, False
    cr4.OSFXSR = cr4.OSXSAVE = cr4.OSXMMEXCPT = True
    st.cr0, st.cr4 = int(cr0), int(cr4)
    st.xcr0 = 0xE7  # x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM
    st.cr3 = PML4
    cs = bochscpu.Segment()
    cs.present, cs.selector, cs.base, cs.limit, cs.attr = True, 0x33, 0, 0xFFFF_FFFF, 0x22FB
    ds = bochscpu.Segment()
    ds.present, ds.selector, ds.base, ds.limit, ds.attr = True, 0x2B, 0, 0xFFFF_FFFF, 0xCF3
    st.cs, st.ds, st.ss, st.es, st.fs, st.gs = cs, ds, ds, ds, ds, ds
    st.rsp = STACK + 0x800
    st.rip = rip
    return st


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

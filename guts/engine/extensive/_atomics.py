"""Atomic integers and a spinning barrier for numba kernels (both cores on small games).

numba's CPU target has no atomics; these are LLVM's (``atomicrmw``, ``cmpxchg``, atomic
loads), sequentially consistent, so that what a thread wrote before a barrier is seen by
every thread after it. Used by :func:`._whole.iterations_barrier`: one parallel region for
many CFR iterations, its threads meeting at a barrier (~0.1 us on the 2-core machine)
instead of a parallel region per player and iteration (~1.3-3 us each).

A spinning barrier needs every thread of the region running at once. :func:`start`
checks that they all arrived within :data:`START_SPINS` spins before any work is done, and
else makes every thread leave (the caller then runs the serial kernel).
"""
from __future__ import annotations

import platform

import numpy as np

from ._fused import HAVE_NUMBA, njit

#: Spins (each a CPU pause, ~25 ns on the 2-core machine) a thread waits at :func:`start` for
#: the others (a pool's threads start within microseconds on an idle machine).
START_SPINS = 2_000_000

# The control array's slots (int64, each on its own cache line: a slot is 8 entries apart).
ARRIVED = 0          # threads at the barrier
GENERATION = 8       # barrier generations completed
STARTED = 16         # threads at the start
STATE = 24           # 0 waiting for all threads, 1 go, 2 abort
LIMIT = 32           # spins a thread waits at the start (:data:`START_SPINS`, set by :func:`control`)
CONTROL_SIZE = 40


def control(out=None, spins: int = START_SPINS):
    """A control array for :func:`start` and :func:`barrier` (zeroed, into ``out`` if given)."""
    ctl = np.zeros(CONTROL_SIZE, dtype=np.int64) if out is None else out
    ctl[:] = 0
    ctl[LIMIT] = spins
    return ctl

if HAVE_NUMBA:
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    _X86 = platform.machine().lower() in ("x86_64", "amd64", "i686", "x86")

    def _pointer(context, builder, arrty, arr, idx):
        ary = context.make_array(arrty)(context, builder, arr)
        return cgutils.get_item_pointer(context, builder, arrty, ary, [idx])

    @intrinsic
    def atomic_add(typingctx, arr, idx, val):
        """``arr[idx] += val`` atomically; returns the old value (int64 array)."""
        sig = types.int64(arr, types.intp, types.int64)

        def codegen(context, builder, sig, args):
            ptr = _pointer(context, builder, sig.args[0], args[0], args[1])
            return builder.atomic_rmw("add", ptr, args[2], "seq_cst")
        return sig, codegen

    @intrinsic
    def atomic_load(typingctx, arr, idx):
        """``arr[idx]``, an atomic (acquire) load: not hoisted out of a spinning loop."""
        sig = types.int64(arr, types.intp)

        def codegen(context, builder, sig, args):
            ptr = _pointer(context, builder, sig.args[0], args[0], args[1])
            return builder.load_atomic(ptr, "acquire", 8)
        return sig, codegen

    @intrinsic
    def atomic_cas(typingctx, arr, idx, expected, new):
        """``arr[idx] = new`` if it is ``expected``, atomically; True if it was."""
        sig = types.boolean(arr, types.intp, types.int64, types.int64)

        def codegen(context, builder, sig, args):
            ptr = _pointer(context, builder, sig.args[0], args[0], args[1])
            res = builder.cmpxchg(ptr, args[2], args[3], "seq_cst", "seq_cst")
            return builder.extract_value(res, 1)
        return sig, codegen

    @intrinsic
    def spin_pause(typingctx):
        """The CPU's spin-wait hint (x86 ``pause``; nothing elsewhere)."""
        sig = types.none()

        def codegen(context, builder, sig, args):
            if _X86:
                fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), []),
                                                    "llvm.x86.sse2.pause")
                builder.call(fn, [])
            return context.get_dummy_value()
        return sig, codegen

    @njit(cache=True, nogil=True)
    def start(ctl, n):
        """Called by each of the ``n`` threads of a region before any work: True when all
        ``n`` arrived (then they run at once, and :func:`barrier` cannot wait forever),
        False for every thread when some did not within ``ctl[LIMIT]`` spins (the region's
        iterations ran one after another, on fewer threads)."""
        if atomic_add(ctl, STARTED, 1) == n - 1:
            atomic_cas(ctl, STATE, 0, 1)
        spins = 0
        while atomic_load(ctl, STATE) == 0:
            spin_pause()
            spins += 1
            if spins > ctl[LIMIT]:
                atomic_cas(ctl, STATE, 0, 2)
        return atomic_load(ctl, STATE) == 1

    @njit(cache=True, nogil=True)
    def barrier(ctl, n, gen):
        """Wait until all ``n`` threads called ``barrier`` for the ``gen``-th time (from 0);
        returns ``gen + 1``."""
        if atomic_add(ctl, ARRIVED, 1) == n - 1:
            atomic_add(ctl, ARRIVED, -n)
            atomic_add(ctl, GENERATION, 1)
        else:
            while atomic_load(ctl, GENERATION) == gen:
                spin_pause()
        return gen + 1

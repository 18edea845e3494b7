"""Bit counting in compiled code: one machine instruction each where the CPU has one."""

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount_nb(typingctx, x):
    """How many bits of the integer ``x`` are set (int64)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = builder.ctpop(args[0])
        return context.cast(builder, value, x, types.int64)

    return types.int64(x), codegen


@intrinsic
def lowest_bit_nb(typingctx, x):
    """Index of the lowest set bit of the integer ``x`` (int64); the bit width if ``x == 0``."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
        return context.cast(builder, value, x, types.int64)

    return types.int64(x), codegen

"""Compiled helpers that tell LLVM, numba's code generator, how to compile what calls them.

numba compiles each ``@njit`` function once and links it into its callers, where LLVM
may copy it in; ``inline="always"`` instead has numba type and lower a copy of the
callee in every caller, which for a large helper costs seconds of compiling per copy.
"""

from typing import Any

from numba.core import cgutils
from numba.core import types as nbtypes
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic


@intrinsic
def inlined_by_llvm_nb(typingctx: Any) -> Any:
    """Called in a compiled function: LLVM copies that function into every compiled
    function that calls it (``alwaysinline``), as numba links it in.

    The function is typed and lowered once, by numba, and its callers do without the
    call: no arguments passed word by word (a tuple of arrays is many words), and the
    callee's code optimised with its caller's constants. numba's cache keeps the
    function's LLVM code beside its machine code for such linking, so a function loaded
    from the cache is inlined too.
    """

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        builder.function.attributes.add("alwaysinline")
        return context.get_dummy_value()

    return nbtypes.none(), codegen


@intrinsic
def hold_nb(typingctx: Any, value: Any) -> Any:
    """``hold_nb(value)``: the address of a copy of ``value`` on the caller's stack,
    valid while the caller runs; :func:`unheld_nb` reads it back. An address it gave
    comes back as it is (no copy of a copy).

    The copy borrows the arrays of ``value``: each must stay referenced by a live
    variable or argument of the caller while the address is read (numba lets go of a
    variable after its last use)."""
    if isinstance(value, nbtypes.CPointer):

        def same(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return args[0]

        return value(value), same

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        stored = cgutils.alloca_once_value(builder, args[0])
        return builder.bitcast(stored, context.get_value_type(signature.return_type))

    return nbtypes.CPointer(value)(value), codegen


@intrinsic
def hold_when_nb(typingctx: Any, value: Any, wanted: Any) -> Any:
    """:func:`hold_nb`'s address, the copy made only if ``wanted`` (a bool). Unless
    wanted, the address holds whatever the stack held: a value read back from it must go
    unused, and be read only where numba counts no references (``_nrt=False``), which
    would otherwise count those of stray words. Making the copy costs a store a word (a
    tuple of many arrays is hundreds), worth saving where nothing will read it."""
    if not isinstance(wanted, nbtypes.Boolean):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        stored = cgutils.alloca_once(builder, args[0].type)
        with builder.if_then(args[1]):
            builder.store(args[0], stored)
        return builder.bitcast(stored, context.get_value_type(signature.return_type))

    return nbtypes.CPointer(value)(value, wanted), codegen


@intrinsic
def unheld_nb(typingctx: Any, value: Any) -> Any:
    """The value :func:`hold_nb` left at ``value``; any other value as it is."""
    # numba owns what a call returns and lets go of it after its last use: where it
    # counts references, each answer takes a reference of its own (impl_ret_borrowed)
    if not isinstance(value, nbtypes.CPointer):

        def same(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return impl_ret_borrowed(context, builder, value, args[0])

        return value(value), same
    kind = value.dtype

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        pointer = builder.bitcast(args[0], context.get_value_type(kind).as_pointer())
        return impl_ret_borrowed(context, builder, kind, builder.load(pointer))

    return kind(value), codegen

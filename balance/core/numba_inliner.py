"""numba's inliner, made to copy a callee's variables once per inlining.

Every ``inline="always"`` call numba inlines starts from a deep copy of the callee's IR,
made block by block with a memo per block (numba issues 8989 and 9204): each block's copy
copies the callee's whole scope again, every variable of it, so one inlining costs the
callee's blocks times its variables. balance's game loops inline deep trees of helpers;
that copying was some 60% of compiling them (Walk the Plank's engine: 86 s, 53 s with
one memo). :func:`share_scope_copies` gives the blocks of one copy one memo, as a deep
copy of the whole IR at once would: the copy holds the same objects, shared the same way
as in the IR it copies.
"""

from __future__ import annotations

import inspect
import re
import textwrap

from numba.core import inline_closurecall

__all__ = ["share_scope_copies"]

#: The lines of ``InlineWorker.inline_ir``'s ``copy_ir`` that start a copy and copy a block.
_START = "kernel_copy.blocks = {}"
_PER_BLOCK = "copy.deepcopy(the_ir.blocks[block_label])"
_SHARED = "copy.deepcopy(the_ir.blocks[block_label], memo)"


def share_scope_copies() -> bool:
    """Replace ``InlineWorker.inline_ir`` with its own source, the blocks of each copy
    sharing one memo (once a process).

    Returns
    -------
    Whether numba's inliner now copies that way: False if its source is not the one this
    edits (another numba version), which leaves numba as it is, only slower to compile.
    """
    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_ir, "shares_scope_copies", False):
        return True
    try:
        source = textwrap.dedent(inspect.getsource(worker.inline_ir))
    except (OSError, TypeError):
        return False
    start = re.search(rf"^([ \t]*){re.escape(_START)}$", source, re.MULTILINE)
    if start is None or source.count(_START) != 1 or source.count(_PER_BLOCK) != 1:
        return False
    source = source.replace(_START, f"{_START}\n{start.group(1)}memo = {{}}")
    source = source.replace(_PER_BLOCK, _SHARED)
    defined: dict[str, object] = {}
    code = compile(source, inspect.getsourcefile(worker.inline_ir) or "<inline_ir>", "exec")
    exec(code, vars(inline_closurecall), defined)  # numba's own globals, as before
    function = defined["inline_ir"]
    function.__qualname__ = worker.inline_ir.__qualname__  # type: ignore[attr-defined]
    function.shares_scope_copies = True  # type: ignore[attr-defined]
    function.numba_inline_ir = worker.inline_ir  # type: ignore[attr-defined]
    worker.inline_ir = function  # type: ignore[method-assign]
    return True

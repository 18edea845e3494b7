"""The core: what every game and every layer above stands on.

Compiled random streams and bit counting, numba's source-keyed cache, the Strategy type,
the errors a user can cause, and rule values as text. Nothing here imports a game.
"""

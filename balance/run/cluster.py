"""Runs played on a Dask distributed cluster (the optional extra ``cluster``).

Inside :func:`on_cluster`, every run (:func:`balance.run.runner.run_games`, so every
command built on it: simulate, compare, cards, tournament, matchup, skill, check) hands
its blocks of games to the cluster's workers instead of local threads. A block is the
same games wherever it is played (each game draws from streams seeded by the run's seed
and the game's index), so a run on a cluster gives the local run's figures. Dask is
imported only here and only when a scheduler is given, so ``balance`` runs without it.

A ``tls://`` address uses Dask's security settings: the certificate authority and the
client's certificate and key from the Dask configuration
(``distributed.comm.tls.ca-file``, ``distributed.comm.tls.client.cert``,
``distributed.comm.tls.client.key``, or the environment variables
``DASK_DISTRIBUTED__COMM__TLS__CA_FILE`` and so on).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from balance.core.errors import BalanceError

#: Seconds to wait for the scheduler before saying it cannot be reached.
CONNECT_TIMEOUT = 10
#: Times a task is tried again after the worker running it died.
RETRIES = 3
INSTALL_HINT = 'pip install -e ".[cluster]" (or pip install "dask[distributed]")'
#: The environment variable naming the scheduler when no address is given.
ADDRESS_VARIABLE = "DASK_SCHEDULER_ADDRESS"
#: What a tls:// client needs from the Dask configuration.
TLS_SETTINGS = ("tls.ca-file", "tls.client.cert", "tls.client.key")


#: A scheduler's address: an optional protocol, a host (or [IPv6]) and a port; or an
#: in-process scheduler's (``inproc://``, a LocalCluster without processes).
ADDRESS_SHAPE = re.compile(
    r"^(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[^\]]+\]|[^\s:/\[\]]+):\d+$|^inproc://\S+$"
)


def scheduler_address(scheduler: str | None) -> str | None:
    """The scheduler given, else ``$DASK_SCHEDULER_ADDRESS``, else None (play locally);
    a one-line error unless it reads as ``PROTOCOL://HOST:PORT``."""
    address = scheduler or os.environ.get(ADDRESS_VARIABLE) or None
    if address is not None and not ADDRESS_SHAPE.match(address):
        source = "--scheduler" if scheduler else f"${ADDRESS_VARIABLE}"
        raise BalanceError(
            f"{source} is a Dask scheduler's address, tcp://HOST:PORT or tls://HOST:PORT, "
            f"not {address!r}"
        )
    return address


def _security(address: str) -> Any:
    """Dask's security settings for ``address``: from the Dask configuration for
    ``tls://``, a one-line error naming what is missing; None otherwise."""
    if not address.startswith("tls://"):
        return None
    import dask.config
    from distributed.security import Security

    missing = [
        name for name in TLS_SETTINGS if not dask.config.get(f"distributed.comm.{name}", None)
    ]
    if missing:
        variables = ", ".join(
            "DASK_DISTRIBUTED__COMM__" + name.upper().replace(".", "__").replace("-", "_")
            for name in missing
        )
        raise BalanceError(
            f"{address} is a TLS scheduler: set the certificates in the Dask configuration "
            f"({', '.join('distributed.comm.' + n for n in missing)}) or the environment "
            f"({variables})"
        )
    return Security(require_encryption=True)


def connect(address: str) -> Any:
    """A ``dask.distributed.Client`` for ``address``; one-line errors if Dask is missing,
    a ``tls://`` address lacks its certificates, or the scheduler does not answer within
    :data:`CONNECT_TIMEOUT` seconds (or refuses this client's certificate)."""
    try:
        from distributed import Client
    except ImportError:
        raise BalanceError(f"--scheduler needs Dask distributed: {INSTALL_HINT}") from None
    security = _security(address)
    try:
        return Client(
            address, timeout=f"{CONNECT_TIMEOUT}s", set_as_default=False, security=security
        )
    except (OSError, TimeoutError, ValueError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise BalanceError(
            f"cannot reach the Dask scheduler at {address} within {CONNECT_TIMEOUT} s ({reason})"
        ) from None


def one_numba_thread() -> int:
    """Run in every worker: numba code there uses one thread (the worker's threads share
    the cores; dask/distributed#9075)."""
    import numba

    numba.set_num_threads(1)
    return 1


def prepare_here(setup: Any) -> bool:
    """Run in every worker: compile (or load from the cache) the engine ``setup`` plays."""
    from balance.games import get_game

    get_game(setup.game).prepare(setup)
    return True


def worker_threads(client: Any) -> int:
    """Worker threads of the cluster ``client`` is connected to (at least one)."""
    return max(1, sum(client.nthreads().values()))


class Cluster:
    """A connected Dask client that runs hand their blocks of games to.

    Parameters
    ----------
    client : a ``distributed.Client``.
    address : the scheduler's address, for messages.
    """

    def __init__(self, client: Any, address: str) -> None:
        self.client = client
        self.address = address
        self._prepared: set[str] = set()
        self._executor = client.get_executor(pure=False, retries=RETRIES)
        client.run(one_numba_thread)

    @property
    def threads(self) -> int:
        """Worker threads of the cluster now (at least one)."""
        return worker_threads(self.client)

    def prepare(self, setup: Any) -> None:
        """Compile or load ``setup``'s engine on every worker, once per line-up, so that a
        worker's first block does not wait for it task by task."""
        key = repr((setup.game, setup.players, setup.rules, setup.lineup))
        if key not in self._prepared:
            self.client.run(prepare_here, setup)
            self._prepared.add(key)

    def submit(self, function: Callable[..., Any], *args: Any) -> Future[Any]:
        """``function(*args)`` on a worker, as a ``concurrent.futures.Future`` (cancelling
        it cancels the task); tried again on another worker if its worker dies."""
        return self._executor.submit(function, *args)

    def close(self) -> None:
        self.client.close()


_ACTIVE: ContextVar[Cluster | None] = ContextVar("balance_cluster", default=None)


def active_cluster() -> Cluster | None:
    """The cluster runs play on here (inside :func:`on_cluster`), or None: local threads."""
    return _ACTIVE.get()


@contextmanager
def on_cluster(scheduler: str | None = None) -> Iterator[Cluster | None]:
    """Play every run inside on the Dask cluster at ``scheduler``.

    ``scheduler`` None: ``$DASK_SCHEDULER_ADDRESS`` if set, else the runs stay local (the
    context then does nothing). One client serves every run inside, and is closed after.

    >>> from balance import api
    >>> with api.on_cluster("tcp://10.0.0.5:8786"):  # doctest: +SKIP
    ...     run = api.simulate("walk-the-plank", players=5, games=100_000_000)
    """
    address = scheduler_address(scheduler)
    if address is None:
        yield None
        return
    cluster = Cluster(connect(address), address)
    token = _ACTIVE.set(cluster)
    try:
        yield cluster
    finally:
        _ACTIVE.reset(token)
        cluster.close()

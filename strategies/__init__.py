"""Strategies that ship with balance, one module per game (importable as balance.strategies)."""

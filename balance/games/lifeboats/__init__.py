"""Rette sich wer kann (Lifeboats, Ronald Wettering), 3-6 players."""

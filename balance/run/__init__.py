"""Playing games: a run's choices validated, its games played in parallel blocks (to a
count or to a precision), its records kept, summed, saved and read back."""

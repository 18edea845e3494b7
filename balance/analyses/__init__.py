"""What a designer asks of many runs: variants compared, cards valued, rule spaces swept,
targets checked, tournaments and skill ladders; each with the pages that report it."""

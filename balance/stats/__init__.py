"""Statistics: intervals for rates and means, the metrics behind every chart, confidence
sequences, and the caveats a figure carries. Pure functions of numbers and tables; they
know no game."""

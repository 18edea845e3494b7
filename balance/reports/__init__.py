"""Drawing and plain sentences: tables with intervals in, figures, findings pages and
PDFs out. Games and analyses draw their own pages with these; nothing here knows a game."""

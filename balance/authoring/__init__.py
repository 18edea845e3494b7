"""A designer's own strategies: templates to start from and a quick check of a file."""

"""La Planche (Dominique Ehrhard): a spinner, one line of prisoners, hidden colours."""

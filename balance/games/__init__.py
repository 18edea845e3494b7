"""The games balance can play, one package each."""

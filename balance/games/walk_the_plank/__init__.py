"""Walk the Plank (Shane Steely and Jared Tinney), with the Ghost, Dolphin and Kraken variants."""

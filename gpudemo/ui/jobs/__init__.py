"""Work off the GUI thread: the training worker and the measurements, and what drives them."""

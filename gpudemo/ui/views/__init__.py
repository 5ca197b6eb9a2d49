"""The tabs: the loss and the fit, the landscape, compare, sweep, the step profile, and their plots."""

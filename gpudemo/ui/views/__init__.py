"""The tabs: the loss and the fit (or the boundary, or the digits), the landscape, compare, sweep and roofline,
the step profile and its timeline, data parallel, moving data; and their plots."""

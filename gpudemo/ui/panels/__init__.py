"""The left column and the dock: the devices, the training form, predicting, the Code panel."""

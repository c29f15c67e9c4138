// GET readings of one tank over a window of hours.

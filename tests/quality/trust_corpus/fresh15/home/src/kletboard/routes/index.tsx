// Home: one card per tank.

"""factory_boy factories for every model."""

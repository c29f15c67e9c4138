"""Admin, including the refund-deposit action."""

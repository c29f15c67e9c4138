"""The Stripe webhook view."""

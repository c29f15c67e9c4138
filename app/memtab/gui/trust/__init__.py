"""Memory every agent can trust, in the window: the room of what needs you and the Trust
panel (`feature.TrustFeature`)."""

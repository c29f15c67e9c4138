"""tidepool: Larkspur Health's data platform."""

"""Re-match old records against the GBIF backbone."""

import httpx

MATCH = "https://api.gbif.org/v1/species/match"

"""Compare a buoy's readings with OpenWeather's for the same hour."""

import os

API_KEY = os.environ.get("OPENWEATHER_KEY", "")

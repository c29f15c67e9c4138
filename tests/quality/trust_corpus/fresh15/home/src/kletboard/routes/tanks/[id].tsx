// Tank page: chart, thresholds, latest readings.

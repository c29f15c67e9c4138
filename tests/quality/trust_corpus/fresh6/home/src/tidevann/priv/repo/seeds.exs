# seeds the three Bergen gauges

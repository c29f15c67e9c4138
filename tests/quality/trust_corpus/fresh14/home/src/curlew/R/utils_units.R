litres_to_m3 <- function(x) x / 1000
per_quarter_hour_to_lph <- function(x) x * 4

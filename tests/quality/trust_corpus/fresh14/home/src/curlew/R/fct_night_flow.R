compute_night_flow <- function(readings, from = 2, to = 4) {
  readings |>
    dplyr::filter(lubridate::hour(local_time) >= from, lubridate::hour(local_time) < to) |>
    dplyr::summarise(flow_lph = mean(litres) * 4, .by = c(meter_id, night))
}

# A meter is flagged when its night flow stays above zero for `hours` in a row.
flag_leaks <- function(night_flow, hours = 48) {
  night_flow |>
    dplyr::group_by(meter_id) |>
    dplyr::mutate(run = cumsum_positive_run(flow_lph > 0)) |>
    dplyr::filter(run >= hours)
}

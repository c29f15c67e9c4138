library(targets)
tar_source()
tar_option_set(packages = c("dplyr", "readr", "duckdb"))
list(
  tar_target(incoming, list_incoming_files(), format = "file"),
  tar_target(meter_readings, read_meter_csvs(incoming)),
  tar_target(night_flow, compute_night_flow(meter_readings)),
  tar_target(leak_flags, flag_leaks(night_flow))
)

library(targets)
tar_source("R")
list(
  tar_target(logger_files, list.files("data", pattern = "csv$", full.names = TRUE), format = "file"),
  tar_target(water_table, load_sensors(logger_files))
)

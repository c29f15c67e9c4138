# Levelogger readings minus the site's Barologger, as depth below the surface in metres.
load_sensors <- function(path) {
  raw <- readr::read_csv(path, show_col_types = FALSE)
  compensate_baro(raw)
}

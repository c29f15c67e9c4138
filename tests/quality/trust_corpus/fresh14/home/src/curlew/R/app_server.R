app_server <- function(input, output, session) {
  pool <- db_pool()
  mod_meters_server("meters", pool)
  mod_leak_map_server("leak_map", pool)
}

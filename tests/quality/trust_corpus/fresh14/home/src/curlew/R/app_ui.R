app_ui <- function(request) {
  bslib::page_navbar(
    title = "curlew",
    bslib::nav_panel("Leak map", mod_leak_map_ui("leak_map")),
    bslib::nav_panel("Meters", mod_meters_ui("meters"))
  )
}

mod_leak_map_ui <- function(id) {
  leaflet::leafletOutput(shiny::NS(id, "map"), height = 600)
}

mod_leak_map_server <- function(id, pool) {
  shiny::moduleServer(id, function(input, output, session) {
    output$map <- leaflet::renderLeaflet(draw_dma_map(pool))
  })
}

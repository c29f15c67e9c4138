mod_meters_ui <- function(id) {
  ns <- shiny::NS(id)
  shiny::tagList(shiny::selectInput(ns("dma"), "DMA", choices = NULL), shiny::tableOutput(ns("table")))
}

mod_meters_server <- function(id, pool) {
  shiny::moduleServer(id, function(input, output, session) {
    output$table <- shiny::renderTable(meter_week(pool, input$dma))
  })
}

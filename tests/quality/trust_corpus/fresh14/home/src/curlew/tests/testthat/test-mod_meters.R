test_that("the meter table follows the chosen DMA", {
  shiny::testServer(mod_meters_server, args = list(pool = fake_pool()), {
    session$setInputs(dma = "GW-014")
    expect_true(is.data.frame(meter_week(pool, "GW-014")))
  })
})

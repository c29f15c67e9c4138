test_that("a meter quiet at night is never flagged", {
  quiet <- data.frame(meter_id = 1, flow_lph = rep(0, 72))
  expect_equal(nrow(flag_leaks(quiet)), 0)
})

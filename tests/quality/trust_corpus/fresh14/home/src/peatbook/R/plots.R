plot_water_table <- function(data, quarter) {
  ggplot2::ggplot(subset(data, quarter == quarter), ggplot2::aes(time, depth_m, colour = dipwell)) +
    ggplot2::geom_hline(yintercept = 0, linetype = "dashed", colour = "grey50") +
    ggplot2::geom_line()
}

library(testthat)
library(curlew)
test_check("curlew")

db_pool <- function() {
  pool::dbPool(RPostgres::Postgres(), dbname = Sys.getenv("CURLEW_DB"), host = Sys.getenv("CURLEW_DB_HOST"))
}

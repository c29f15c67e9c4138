module github.com/tbrandt/ledgerline

go 1.22

require (
	github.com/go-chi/chi/v5 v5.0.12
	github.com/jackc/pgx/v5 v5.6.0
	github.com/pressly/goose/v3 v3.21.1
	github.com/shopspring/decimal v1.4.0
)

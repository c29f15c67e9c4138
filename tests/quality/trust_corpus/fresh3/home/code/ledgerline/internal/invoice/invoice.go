package invoice

import "github.com/shopspring/decimal"

type Invoice struct {
	ID       string
	Customer string
	Lines    []Line
}

type Line struct {
	SKU      string
	Quantity int
	Unit     decimal.Decimal
}

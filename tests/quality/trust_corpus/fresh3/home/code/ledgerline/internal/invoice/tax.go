package invoice

import "github.com/shopspring/decimal"

// RoundHalfEven is the rounding the tax office expects on each line.
func RoundHalfEven(d decimal.Decimal) decimal.Decimal { return d.RoundBank(2) }

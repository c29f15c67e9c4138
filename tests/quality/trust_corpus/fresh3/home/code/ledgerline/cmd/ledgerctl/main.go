package main

import "fmt"

func main() {
	fmt.Println("ledgerctl: reissue, void, export")
}

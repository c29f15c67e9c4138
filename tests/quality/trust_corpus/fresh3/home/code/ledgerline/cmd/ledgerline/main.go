package main

import (
	"log"
	"net/http"

	"github.com/tbrandt/ledgerline/internal/httpapi"
)

func main() {
	log.Fatal(http.ListenAndServe(":8081", httpapi.Router()))
}

package main

import (
	"os"

	"github.com/portwise/dockyard/internal/cli"
)

func main() {
	if err := cli.Root().Execute(); err != nil {
		os.Exit(1)
	}
}

package config

import (
	"os"
	"path/filepath"
)

// Path is the user's config file: $XDG_CONFIG_HOME/dockyard/config.yaml.
func Path() string {
	base := os.Getenv("XDG_CONFIG_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".config")
	}
	return filepath.Join(base, "dockyard", "config.yaml")
}

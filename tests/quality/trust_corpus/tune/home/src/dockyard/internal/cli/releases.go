package cli

import "github.com/spf13/cobra"

func releasesCmd() *cobra.Command { return &cobra.Command{Use: "releases"} }

func canaryCmd() *cobra.Command { return &cobra.Command{Use: "canary"} }

package cli

import "github.com/spf13/cobra"

func Root() *cobra.Command {
	root := &cobra.Command{Use: "dockyard"}
	root.AddCommand(rollbackCmd(), releasesCmd(), canaryCmd())
	return root
}

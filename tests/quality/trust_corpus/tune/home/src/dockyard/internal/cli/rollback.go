package cli

import (
	"fmt"

	"github.com/portwise/dockyard/internal/deploy"
	"github.com/spf13/cobra"
)

func rollbackCmd() *cobra.Command {
	var service, to string
	cmd := &cobra.Command{
		Use: "rollback",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := deploy.Rollback(cmd.Context(), service, to); err != nil {
				return fmt.Errorf("rolling back %s: %w", service, err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&service, "service", "", "service name")
	cmd.Flags().StringVar(&to, "to", "", "release id")
	return cmd
}

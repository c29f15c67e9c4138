module github.com/portwise/dockyard

go 1.23

require (
	github.com/spf13/cobra v1.8.1
	k8s.io/client-go v0.31.1
)

module git.aydin.host/platform/ferrule

go 1.23

require (
	sigs.k8s.io/controller-runtime v0.19.1
	k8s.io/client-go v0.31.2
)

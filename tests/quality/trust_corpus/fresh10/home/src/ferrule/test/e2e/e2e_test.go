package e2e

// runs against the kind cluster named ferrule

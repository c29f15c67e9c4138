package controller

// envtest bootstrap for the Ginkgo suite.

package v1alpha1

// SnapshotPolicySpec is cluster scoped.
type SnapshotPolicySpec struct{}

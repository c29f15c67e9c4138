package controller

// VolumeSnapshotReconciler prunes expired snapshots.
type VolumeSnapshotReconciler struct{}

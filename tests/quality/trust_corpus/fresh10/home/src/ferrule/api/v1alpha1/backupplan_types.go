package v1alpha1

// BackupPlanSpec defines when and how a PVC is snapshotted.
type BackupPlanSpec struct {
	Schedule      string `json:"schedule,omitempty"`
	RetentionDays int    `json:"retentionDays,omitempty"`
}

package v1alpha1

// validating webhook for BackupPlan

package controller

// BackupPlanReconciler reconciles a BackupPlan object.
type BackupPlanReconciler struct{}

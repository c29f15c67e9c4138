instance_class          = "db.t4g.medium"
backup_retention_period = 7

module "rds" {
  source                  = "../../modules/rds"
  identifier              = "kiln-prod"
  engine_version          = "15.7"
  instance_class          = var.instance_class
  backup_retention_period = var.backup_retention_period
  multi_az                = true
}

resource "aws_db_instance" "this" {
  identifier              = var.identifier
  engine                  = "postgres"
  engine_version          = var.engine_version
  instance_class          = var.instance_class
  backup_retention_period = var.backup_retention_period
  multi_az                = var.multi_az
}

module "rds" {
  source         = "../../modules/rds"
  identifier     = "kiln-staging"
  engine_version = "15.7"
  instance_class = "db.t4g.micro"
  multi_az       = false
}

terraform {
  backend "s3" {
    bucket         = "ferrostack-tfstate"
    key            = "prod/terraform.tfstate"
    region         = "eu-central-1"
    dynamodb_table = "ferrostack-locks"
  }
}

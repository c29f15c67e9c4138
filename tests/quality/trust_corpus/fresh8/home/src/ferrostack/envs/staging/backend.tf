terraform {
  backend "s3" {
    bucket         = "ferrostack-tfstate"
    key            = "staging/terraform.tfstate"
    region         = "eu-central-1"
    dynamodb_table = "ferrostack-locks"
  }
}

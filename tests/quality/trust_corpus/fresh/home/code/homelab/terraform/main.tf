terraform {
  backend "s3" {}
}

variable "name" {
  description = "Service name, e.g. web or worker"
  type        = string
}

variable "desired_count" {
  description = "How many tasks to run"
  type        = number
}

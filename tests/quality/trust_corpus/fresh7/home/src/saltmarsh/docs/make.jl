using Documenter, Saltmarsh

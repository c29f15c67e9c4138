using Test, Saltmarsh

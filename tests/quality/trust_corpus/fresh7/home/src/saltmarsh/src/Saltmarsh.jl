module Saltmarsh
include("tides.jl")
include("solver/implicit.jl")
end

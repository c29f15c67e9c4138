# NetCDF writer

// decode benchmarks

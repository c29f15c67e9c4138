# harmonic tide prediction
